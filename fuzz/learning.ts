import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import type { LightMyRequestResponse } from 'fastify'
import { scormPackage } from './hostile/courses.js'
import { formBody } from './hostile/http.js'
import { SESSION_ID_EXTENSION } from './hostile/launch.js'
import { entry, zip } from './hostile/zip.js'
import type { Request } from './requests.js'
import type { Caller, World } from './world.js'

// The learning half's happy path, played before the generated requests so that they find real
// courses, packages, registrations and sessions: a cmi5 course (the demo course) and a SCORM course
// imported from uploaded packages, registered on a crew member's assignment, launched, played (cmi5
// statements through the session's credential; SCORM commits to the end), with an LRS credential.
// Every request the OpenAPI document names is checked like the generated ones; the LRS's own resources
// (not in the document) must answer 2xx.

const ROOT = join(import.meta.dirname, '..')
const IMPORT_WAIT_MS = 120_000
const XAPI = '/api/v1/learn/xapi'

/** Sends a request as `caller`, checked against the document and harvested; null when it failed the run. */
export type Exchange = (request: Request, caller: Caller) => Promise<LightMyRequestResponse | null>
/** Sends a request as it is, unchecked (the LRS's resources are not in the document). */
export type Inject = (request: Request) => Promise<LightMyRequestResponse>

export class ScenarioStopped extends Error {}

/** The demo course as the service ships it (its source folder, zipped). */
function demoCourse(): Buffer {
  const folder = join(ROOT, 'demo-course')
  return zip(readdirSync(folder).map((name) => entry(name, readFileSync(join(folder, name)))))
}

export async function playLearning(world: World, exchange: Exchange, inject: Inject): Promise<string[]> {
  const done: string[] = []
  const call = async (caller: Caller, method: Request['method'], url: string, body?: unknown, status?: number): Promise<any> => {
    const headers: Record<string, string> = {}
    const authorization = world.authorizationOf(caller)
    if (authorization) headers.authorization = authorization
    if (body !== undefined) headers['content-type'] = 'application/json'
    const response = await exchange({ method, url, headers, ...(body === undefined ? {} : { payload: JSON.stringify(body) }) }, caller)
    if (!response) throw new ScenarioStopped()
    if (status ? response.statusCode !== status : response.statusCode >= 300)
      throw new Error(`learning happy path: ${method} ${url} answered ${response.statusCode} ${response.body.slice(0, 500)}`)
    done.push(`${method} ${url.split('?')[0]}`)
    return response.body ? JSON.parse(response.body) : undefined
  }
  const lrs = async (authorization: string, method: Request['method'], path: string, payload?: unknown) => {
    const headers: Record<string, string> = { authorization, 'x-experience-api-version': '1.0.3', 'content-type': 'application/json' }
    const response = await inject({
      method,
      url: XAPI + path,
      headers,
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    })
    if (response.statusCode >= 300)
      throw new Error(`learning happy path: ${method} ${XAPI}${path} answered ${response.statusCode} ${response.body.slice(0, 500)}`)
    done.push(`${method} ${XAPI}${path.split('?')[0]}`)
    return response.body ? JSON.parse(response.body) : undefined
  }

  const importCourse = async (content: Buffer) => {
    const intent = await call('admin', 'POST', '/api/v1/shared/uploads/intent', {
      kind: 'course_package',
      mime: 'application/zip',
      size: content.length,
      filename: 'course.zip',
    })
    const form = await formBody(intent.presignedPost.fields, content)
    const target = new URL(intent.presignedPost.url).pathname
    const posted = await exchange(
      { method: 'POST', url: target, headers: { 'content-type': form.contentType }, payload: form.body },
      'anonymous',
    )
    if (!posted) throw new ScenarioStopped()
    if (posted.statusCode !== 204) throw new Error(`learning happy path: the upload target answered ${posted.statusCode} ${posted.body}`)
    await call('admin', 'POST', `/api/v1/shared/uploads/${intent.uploadId}/finalize`)
    const started = await call('admin', 'POST', '/api/v1/learn/course-imports', { uploadId: intent.uploadId }, 202)
    for (const deadline = Date.now() + IMPORT_WAIT_MS; Date.now() < deadline; await sleep(200)) {
      const job = await call('admin', 'GET', `/api/v1/learn/course-imports/${started.id}`)
      if (job.status === 'complete') return job.courseId as string
      if (job.status !== 'running') throw new Error(`learning happy path: a valid package did not import: ${JSON.stringify(job)}`)
    }
    throw new Error('learning happy path: the import did not end within two minutes')
  }

  const cmi5Course = await importCourse(demoCourse())
  const scormCourse = await importCourse(await scormPackage())
  for (const courseId of [cmi5Course, scormCourse]) await call('crew', 'GET', `/api/v1/learn/courses/${courseId}/structure`)

  const ship = await call('admin', 'POST', '/api/v1/shared/ships', { name: 'MV Learning', imoNumber: '9074729' })
  const assignment = await call('admin', 'POST', '/api/v1/assignments/', { userId: world.a.users.crew, shipId: ship.id, role: 'Deckhand' })
  await call('admin', 'POST', '/api/v1/learn/assignments/bulk/courses', {
    assignmentIds: [assignment.id],
    courseIds: [cmi5Course, scormCourse],
  })
  const registrations = await call('crew', 'GET', `/api/v1/learn/registrations?assignment_id=${assignment.id}`)
  const registrationOf = (courseId: string) => registrations.items.find((r: { course_id: string }) => r.course_id === courseId).id as string

  // cmi5: launch, spend the fetch URL, write the AU's statements with the session's credential.
  const cmi5Registration = registrationOf(cmi5Course)
  const launched = await call('crew', 'POST', `/api/v1/learn/registrations/${cmi5Registration}/launch`, {}, 201)
  const params = new URL(launched.url).searchParams
  const fetched = await call('anonymous', 'POST', new URL(params.get('fetch') ?? '').pathname)
  const session = `Basic ${fetched['auth-token']}`
  // As every AU does (cmi5 §10): read LMS.LaunchData before `initialized`, and build on its context template.
  const stateQuery = new URLSearchParams({
    stateId: 'LMS.LaunchData',
    activityId: params.get('activityId') ?? '',
    agent: params.get('actor') ?? '',
    registration: params.get('registration') ?? '',
  })
  const launchData = await lrs(session, 'GET', `/activities/state?${stateQuery}`)
  const template = launchData.contextTemplate as { contextActivities: Record<string, unknown[]>; extensions: Record<string, unknown> }
  const cmi5Statement = (verb: string, extra: Record<string, unknown> = {}) => ({
    id: crypto.randomUUID(),
    actor: JSON.parse(params.get('actor') ?? '{}'),
    verb: { id: `http://adlnet.gov/expapi/verbs/${verb}` },
    object: { objectType: 'Activity', id: params.get('activityId') },
    context: {
      registration: params.get('registration'),
      contextActivities: {
        ...template.contextActivities,
        category: [
          { id: 'https://w3id.org/xapi/cmi5/context/categories/cmi5' },
          ...(verb === 'completed' ? [{ id: 'https://w3id.org/xapi/cmi5/context/categories/moveon' }] : []),
        ],
      },
      extensions: { ...template.extensions, [SESSION_ID_EXTENSION]: launched.sessionId },
    },
    timestamp: new Date().toISOString(),
    ...extra,
  })
  await lrs(session, 'POST', '/statements', [cmi5Statement('initialized')])
  await lrs(session, 'POST', '/statements', [cmi5Statement('completed', { result: { completion: true, duration: 'PT2M' } })])
  await lrs(session, 'GET', `/statements?registration=${cmi5Registration}`)
  await lrs(session, 'POST', '/statements', [cmi5Statement('terminated', { result: { duration: 'PT3M' } })])
  await call('crew', 'GET', `/api/v1/learn/registrations/${cmi5Registration}/sessions`)
  await call('crew', 'GET', `/api/v1/learn/registrations/${cmi5Registration}`)

  // SCORM: launch, load the runtime, commit, and the final commit; then a session left open for the run.
  const scormRegistration = registrationOf(scormCourse)
  const scormSession = async () => {
    const scorm = await call('crew', 'POST', `/api/v1/learn/registrations/${scormRegistration}/launch`, {}, 201)
    const fragment = new URLSearchParams(new URL(scorm.url).hash.slice(1))
    const auth = `Basic ${Buffer.from(`session.${fragment.get('session')}:${fragment.get('secret')}`).toString('base64')}`
    world.setAuthorization('session', auth)
    return `/api/v1/learn/scorm/sessions/${scorm.sessionId}`
  }
  const scorm = await scormSession()
  await call('session', 'GET', `${scorm}/runtime`)
  const cmi = { core: { lesson_status: 'incomplete', lesson_location: 'page-2', score: { raw: '40' } }, suspend_data: 'page-2' }
  await call('session', 'POST', `${scorm}/commit`, { cmi })
  await call('session', 'POST', `${scorm}/commit`, {
    cmi: { ...cmi, core: { ...cmi.core, lesson_status: 'passed', score: { raw: '90' } } },
    terminate: true,
  })
  await call('session', 'GET', `${await scormSession()}/runtime`)

  // The LRS: a credential of the organization's own, reading what the sessions wrote.
  const credential = await call('admin', 'POST', '/api/v1/learn/xapi/credentials', { name: 'Fuzz reporting' }, 201)
  await call('admin', 'GET', '/api/v1/learn/xapi/credentials')
  const basic = `Basic ${Buffer.from(`${credential.key}:${credential.secret}`).toString('base64')}`
  await lrs(basic, 'GET', `/statements?registration=${scormRegistration}`)
  await call('admin', 'GET', `/api/v1/learn/registrations?course_id=${scormCourse}`)
  return done
}
