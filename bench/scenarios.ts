import type { Fixtures } from './fixtures.js'
import type { LoadRequest } from './load.js'
import type { Api, Scenario } from './scenario.js'
import { xapiScenarios } from './scenarios-xapi.js'

// One topic word of the seeded course titles: it matches about 1 course in 24.
export const SEARCH_TERM = 'ballast'
const DEEP_PAGES = 100
const ROLES = ['Second Officer', 'Able Seaman', 'Chief Engineer', 'Bosun']
const COURSES = '/api/v1/courses/?limit=10'
const FLEET = '/api/v1/learn/readiness?limit=10'
const EXPIRING = '/api/v1/crew/expiring?limit=10'
const SEA_SERVICE = '/api/v1/crew/sea-service?limit=10'

const get = (path: string): LoadRequest => ({ method: 'GET', path })
const json = (method: 'POST' | 'PATCH', path: string, body: unknown): LoadRequest => ({ method, path, body: JSON.stringify(body) })
const fixed =
  (...requests: LoadRequest[]) =>
  async () =>
    requests

function chunks(ids: string[], size: number, max: number): string[][] {
  const out: string[][] = []
  for (let i = 0; i + size <= ids.length && out.length < max; i += size) out.push(ids.slice(i, i + size))
  return out.length > 0 ? out : [ids.slice(0, size)]
}

/** Follows nextCursor DEEP_PAGES times from `first` and returns the URL of the page reached. */
const deepPage =
  (first: string) =>
  async (api: Api): Promise<LoadRequest[]> => {
    let path = first
    for (let page = 0; page < DEEP_PAGES; page++) {
      const { status, body } = await api(path)
      if (status !== 200) throw new Error(`GET ${path} answered ${status}`)
      if (!body?.nextCursor) throw new Error(`the list ${first} ended after ${page + 1} pages`)
      path = `${first}&cursor=${encodeURIComponent(body.nextCursor)}`
    }
    return [get(path)]
  }

export function scenarios(fx: Fixtures): Scenario[] {
  const some = (ids: string[], n: number) => ids.slice(0, n)
  const documentCreates = async () =>
    fx.crewUserIds.map((id, i) =>
      json('POST', `/api/v1/crew/users/${id}/identity-documents`, {
        documentType: 'passport',
        documentNumber: `P${String(i).padStart(8, '0')}`,
        issuingCountry: 'PH',
        issueDate: '2024-03-01',
        expiryDate: '2034-02-28',
      }),
    )
  return [
    { name: 'baseline', title: 'GET /healthz (no database)', prepare: fixed(get('/healthz')) },
    { name: 'bare-fastify', title: 'GET /healthz, bare Fastify app', server: 'bare', prepare: fixed(get('/healthz')) },
    { name: 'courses-first', title: 'List courses, first page', prepare: fixed(get(COURSES)) },
    { name: 'courses-deep', title: `List courses, ${DEEP_PAGES} pages deep`, prepare: deepPage(COURSES) },
    { name: 'courses-search', title: `List courses, search=${SEARCH_TERM}`, prepare: fixed(get(`${COURSES}&search=${SEARCH_TERM}`)) },
    { name: 'courses-count', title: 'List courses, include_count=true', prepare: fixed(get(`${COURSES}&include_count=true`)) },
    {
      name: 'assignment-get',
      title: 'Get one assignment',
      prepare: async () => some(fx.assignmentIds, 1000).map((id) => get(`/api/v1/assignments/${id}`)),
    },
    {
      name: 'assignments-by-ship',
      title: 'List assignments, ship_id filter',
      prepare: async () => fx.shipIds.map((id) => get(`/api/v1/assignments/?ship_id=${id}`)),
    },
    {
      name: 'course-difficulty',
      title: 'Course difficulty',
      prepare: fixed(get('/api/v1/learn/admin/analytics/course-difficulty')),
    },
    { name: 'readiness-first', title: 'Fleet readiness, first page', prepare: fixed(get(FLEET)) },
    { name: 'readiness-deep', title: `Fleet readiness, ${DEEP_PAGES} pages deep`, prepare: deepPage(FLEET) },
    { name: 'readiness-not-ready', title: 'Fleet readiness, ready=false', prepare: fixed(get(`${FLEET}&ready=false`)) },
    {
      name: 'ship-readiness',
      title: "One ship's readiness summary",
      // Each ship's summary read once first: the measured load is the steady state, where the verdicts of
      // the day are stored. The first summary of a ship on a day judges its whole crew (docs/performance.md).
      prepare: async (api) => {
        const paths = fx.shipIds.map((id) => `/api/v1/shared/ships/${id}/readiness`)
        for (const path of paths) await api(path)
        return paths.map(get)
      },
    },
    { name: 'expiring-first', title: 'Fleet expiry list, first page', prepare: fixed(get(EXPIRING)) },
    { name: 'expiring-deep', title: `Fleet expiry list, ${DEEP_PAGES} pages deep`, prepare: deepPage(EXPIRING) },
    {
      name: 'sea-service-summary',
      title: "One person's sea-service summary",
      prepare: async () => fx.crewUserIds.map((id) => get(`/api/v1/crew/users/${id}/sea-service`)),
    },
    { name: 'sea-service-fleet', title: 'Fleet sea service, first page', prepare: fixed(get(SEA_SERVICE)) },
    { name: 'sea-service-deep', title: `Fleet sea service, ${DEEP_PAGES} pages deep`, prepare: deepPage(SEA_SERVICE) },
    { name: 'review-queue', title: 'Review queue (pending)', prepare: fixed(get('/api/v1/crew/verifications?status=pending')) },
    { name: 'document-create', title: 'Create identity document', prepare: documentCreates },
    {
      name: 'document-create-sweeping',
      title: 'Create identity document, the fleet sweep running',
      server: 'sweeping',
      prepare: documentCreates,
    },
    {
      name: 'assignment-patch',
      title: 'PATCH assignment',
      prepare: async () => some(fx.assignmentIds, 1000).map((id, i) => json('PATCH', `/api/v1/assignments/${id}`, { role: ROLES[i % 4] })),
    },
    {
      name: 'attempt-record',
      title: 'Record an attempt (new attemptId)',
      prepare: async () =>
        fx.registrationIds.map((id, i) =>
          json('POST', `/api/v1/learn/registrations/${id}/attempts`, {
            attemptId: '{{uuid}}',
            passed: i % 3 === 0,
            score_percent: i % 3 === 0 ? 85 : 55,
            time_spent_seconds: 600,
          }),
        ),
    },
    ...[10, 1000].map((size) => ({
      name: `bulk-update-${size}`,
      title: `Bulk update, ${size} ids`,
      prepare: async () =>
        chunks(fx.assignmentIds, size, 50_000 / size).map((assignmentIds, i) =>
          json('POST', '/api/v1/learn/assignments/bulk/update', { assignmentIds, role: ROLES[i % 4] }),
        ),
    })),
    {
      name: 'bulk-remove-courses-1000',
      title: 'Bulk remove-courses, 1000 ids',
      prepare: async () =>
        chunks(fx.assignmentIds, 1000, 50).map((assignmentIds) =>
          json('POST', '/api/v1/learn/assignments/bulk/remove-courses', { assignmentIds, courseIds: fx.spareCourseIds }),
        ),
    },
    ...xapiScenarios(fx),
  ]
}
