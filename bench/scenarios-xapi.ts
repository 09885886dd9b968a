import type { Fixtures, XapiRegistration } from './fixtures.js'
import type { LoadRequest } from './load.js'
import type { Api, Scenario } from './scenario.js'
import { PROGRESSED, STATE_ID, XAPI_KEY, XAPI_SECRET } from './seed-xapi.js'

// The Learning Record Store's scenarios (issue 26), with the seeded credential over HTTP Basic. Reads
// and writes use disjoint halves of the registration pool, so what the writes add over repeated runs
// does not grow what the reads return.
const XAPI = '/api/v1/learn/xapi'
const EXPERIENCED = 'http://adlnet.gov/expapi/verbs/experienced'
const AGENTS = 200
const PAGE = 10
const headers = {
  authorization: `Basic ${Buffer.from(`${XAPI_KEY}:${XAPI_SECRET}`).toString('base64')}`,
  'x-experience-api-version': '1.0.3',
}

const get = (path: string): LoadRequest => ({ method: 'GET', path, headers })
const send = (method: 'POST' | 'PUT', path: string, body: unknown): LoadRequest => ({ method, path, body: JSON.stringify(body), headers })
const agentParam = (x: XapiRegistration) => encodeURIComponent(JSON.stringify(x.actor))
const stateOf = (x: XapiRegistration) =>
  `${XAPI}/activities/state?activityId=${encodeURIComponent(x.activityId)}&agent=${agentParam(x)}&registration=${x.registration}&stateId=${STATE_ID}`

/** A statement as a course would send it: no id (the LRS gives one), the learner, the course, the registration. */
const statementOf = (x: XapiRegistration, n: number) => ({
  actor: x.actor,
  verb: { id: EXPERIENCED, display: { 'en-US': 'experienced' } },
  object: { objectType: 'Activity', id: `${x.activityId}/page/${n % 40}` },
  result: { duration: `PT${30 + (n % 90)}S` },
  context: { registration: x.registration, contextActivities: { parent: [{ id: x.activityId }] } },
})

/** Bodies of `size` statements over the pool, each body a different stretch of it. */
function batches(pool: XapiRegistration[], size: number, count: number): LoadRequest[] {
  return Array.from({ length: count }, (_, b) =>
    send(
      'POST',
      `${XAPI}/statements`,
      Array.from({ length: size }, (_, i) => statementOf(pool[(b * size + i) % pool.length], b * size + i)),
    ),
  )
}

/** Follows `more` from the first page of each agent's statements with one verb, to the third page. */
const thirdPages =
  (pool: XapiRegistration[]) =>
  async (api: Api): Promise<LoadRequest[]> => {
    const agents = [...new Map(pool.map((x) => [x.actor.mbox, x])).values()].slice(0, AGENTS)
    const requests: LoadRequest[] = []
    for (const x of agents) {
      let path = `${XAPI}/statements?agent=${agentParam(x)}&verb=${encodeURIComponent(PROGRESSED)}&limit=${PAGE}`
      for (let page = 1; page < 3; page++) {
        const { status, body } = await api(path, headers)
        if (status !== 200) throw new Error(`GET ${path} answered ${status}`)
        if (!body?.more) throw new Error(`${x.actor.mbox}'s ${PROGRESSED} statements ended after ${page} page(s)`)
        path = body.more
      }
      requests.push(get(path))
    }
    return requests
  }

export function xapiScenarios(fx: Fixtures): Scenario[] {
  const half = Math.ceil(fx.xapiRegistrations.length / 2)
  const reads = fx.xapiRegistrations.slice(0, half)
  const writes = fx.xapiRegistrations.slice(half)
  const ready = (requests: () => LoadRequest[]) => async () => {
    if (reads.length === 0 || writes.length === 0) throw new Error('the database holds no xAPI statements')
    return requests()
  }
  return [
    {
      name: 'xapi-post-one',
      title: 'xAPI: POST one statement',
      prepare: ready(() => writes.map((x, i) => send('POST', `${XAPI}/statements`, statementOf(x, i)))),
    },
    // One client posting batches back to back: the batch's latency, not a queue of 32 batches on two cores.
    {
      name: 'xapi-post-100',
      title: 'xAPI: POST a batch of 100 (1 connection)',
      connections: 1,
      prepare: ready(() => batches(writes, 100, 20)),
    },
    {
      name: 'xapi-post-1000',
      title: 'xAPI: POST a batch of 1,000 (1 connection)',
      connections: 1,
      prepare: ready(() => batches(writes, 1000, 4)),
    },
    {
      name: 'xapi-get-registration',
      title: 'xAPI: GET statements by registration',
      prepare: ready(() => reads.map((x) => get(`${XAPI}/statements?registration=${x.registration}`))),
    },
    {
      name: 'xapi-agent-verb-page3',
      title: `xAPI: GET by agent and verb, third page (more, limit=${PAGE})`,
      prepare: async (api) => {
        if (reads.length === 0) throw new Error('the database holds no xAPI statements')
        return thirdPages(reads)(api)
      },
    },
    {
      name: 'xapi-state-put',
      title: 'xAPI: PUT a state document',
      prepare: ready(() => reads.map((x, i) => send('PUT', stateOf(x), { page: 1 + (i % 40) }))),
    },
    { name: 'xapi-state-get', title: 'xAPI: GET a state document', prepare: ready(() => reads.map((x) => get(stateOf(x)))) },
  ]
}
