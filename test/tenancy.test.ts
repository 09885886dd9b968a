import { v7 as uuidv7 } from 'uuid'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Role } from '../src/db/schema.js'
import { ADMIN, MANAGERS, RECORD_WRITERS, STAFF } from '../src/lib/access.js'
import { type Client, useTestApp } from './app.js'
import { createOrg, type TestOrg, type TestUser } from './factories.js'
import { type Kind, masked, type Seeded, seed, snapshot, unknownIds } from './fixtures/tenancy.js'

// The property that matters most: no caller sees or changes another organization's rows, and crew
// never another person's (DECISIONS §2, §8, §9). A stranger's row must answer exactly like an id
// that exists nowhere, so nothing about it leaks.

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE'
/** `x`: the ids being reached for (a stranger's, or unknown ones); `o`: the caller's own rows. */
type Ids = (x: Seeded, o: Seeded) => string
type PathRow = [Method, Ids, body?: unknown, roles?: Role[]]

const ATTEMPT = { attemptId: uuidv7(), passed: true, score_percent: 90 }
const DOCUMENT = { documentType: 'passport', issueDate: '2024-02-01' }
const ATTEMPTERS: Role[] = ['admin', 'crew']

/** GET, PATCH, DELETE of one crew record, and its review actions where it has them. */
const recordRows = (path: string, kind: Kind, edit: object, { get = true, review = true } = {}): PathRow[] => {
  const item: Ids = (x) => `/api/v1/crew/${path}/${x[kind]}`
  return [
    ...(get ? [['GET', item] as PathRow] : []),
    ['PATCH', item, edit, RECORD_WRITERS],
    ['DELETE', item, undefined, RECORD_WRITERS],
    ...(review
      ? ([
          ['POST', (x, o) => `${item(x, o)}/submit`, undefined, RECORD_WRITERS],
          ['POST', (x, o) => `${item(x, o)}/verify`, undefined, STAFF],
          ['POST', (x, o) => `${item(x, o)}/reject`, { reason: 'Blurred' }, STAFF],
        ] as PathRow[])
      : []),
  ]
}

/** The per-user collections: listing or adding to someone else's. */
const collectionRows = (path: string, create: object): PathRow[] => [
  ['GET', (x) => `/api/v1/crew/users/${x.user}/${path}`],
  ['POST', (x) => `/api/v1/crew/users/${x.user}/${path}`, create, RECORD_WRITERS],
]

/** Paths naming one person's rows: a stranger's are 404 for other organizations and for other crew. */
const personalRows: PathRow[] = [
  ['GET', (x) => `/api/v1/shared/users/${x.user}`],
  ['PATCH', (x) => `/api/v1/shared/users/${x.user}`, { firstName: 'Eve' }, ADMIN],
  ['DELETE', (x) => `/api/v1/shared/users/${x.user}`, undefined, ADMIN],
  ['GET', (x) => `/api/v1/shared/uploads/${x.upload}`],
  ['POST', (x) => `/api/v1/shared/uploads/${x.upload}/finalize`],
  ...recordRows('identity-documents', 'document', { notes: 'edited' }),
  ...recordRows('certificates', 'certificate', { notes: 'edited' }),
  ...recordRows('experience', 'experience', { position: 'Master' }, { get: false }),
  ...recordRows('next-of-kin', 'nextOfKin', { fullName: 'Eve' }, { get: false, review: false }),
  ...collectionRows('identity-documents', DOCUMENT),
  ...collectionRows('certificates', { certificateType: 'medical' }),
  ...collectionRows('experience', { companyName: 'Eve Lines', position: 'Cook', startDate: '2021-01-01' }),
  ...collectionRows('next-of-kin', { relationship: 'friend', fullName: 'Eve' }),
  ['GET', (x) => `/api/v1/crew/users/${x.user}/verification`],
  ['GET', (x) => `/api/v1/assignments/${x.assignment}`],
  ['GET', (x) => `/api/v1/learn/assignments/${x.assignment}`],
  ['PATCH', (x) => `/api/v1/assignments/${x.assignment}`, { role: 'Cook' }, MANAGERS],
  ['GET', (x) => `/api/v1/learn/registrations/${x.registration}`],
  ['GET', (x) => `/api/v1/registrations/${x.registration}?expand=true`],
  ['POST', (x) => `/api/v1/learn/registrations/${x.registration}/attempts`, ATTEMPT, ATTEMPTERS],
]

/** Paths naming an organization's shared rows. */
const orgRows: PathRow[] = [
  ['GET', (x) => `/api/v1/shared/ships/${x.ship}`],
  ['PATCH', (x) => `/api/v1/shared/ships/${x.ship}`, { name: 'MV Taken' }, ADMIN],
  ['DELETE', (x) => `/api/v1/shared/ships/${x.ship}`, undefined, ADMIN],
  ['GET', (x) => `/api/v1/courses/${x.course}`],
  ['GET', (x) => `/api/v1/learn/courses/${x.course}`],
  ['PATCH', (x) => `/api/v1/courses/${x.course}`, { title: 'Taken' }, ADMIN],
  ['DELETE', (x) => `/api/v1/learn/courses/${x.course}`, undefined, ADMIN],
  ['GET', (x) => `/api/v1/learn/curriculums/${x.curriculum}`],
  ['PATCH', (x) => `/api/v1/learn/curriculums/${x.curriculum}`, { title: 'Taken' }, ADMIN],
  ['DELETE', (x) => `/api/v1/learn/curriculums/${x.curriculum}`, undefined, ADMIN],
  ['POST', (x, o) => `/api/v1/learn/curriculums/${x.curriculum}/courses?course_id=${o.course}`, undefined, ADMIN],
  ['DELETE', (x, o) => `/api/v1/learn/curriculums/${x.curriculum}/courses/${o.course}`, undefined, ADMIN],
  ['POST', (x, o) => `/api/v1/learn/curriculums/${o.curriculum}/courses?course_id=${x.course}`, undefined, ADMIN],
  ['DELETE', (x, o) => `/api/v1/learn/curriculums/${o.curriculum}/courses/${x.course}`, undefined, ADMIN],
]

type RefRow = [Method, Ids, body: (x: Seeded, o: Seeded) => object, loc: (string | number)[], roles: Role[]]
const BULK = '/api/v1/learn/assignments/bulk'

/** A body naming a row the caller cannot see: 422 at that field (DECISIONS §9). */
const refRows: RefRow[] = [
  ['POST', () => '/api/v1/assignments', (x, o) => ({ userId: x.user, shipId: o.ship, role: 'Cook' }), ['userId'], MANAGERS],
  ['POST', () => '/api/v1/learn/assignments', (x, o) => ({ userId: o.user, shipId: x.ship, role: 'Cook' }), ['shipId'], MANAGERS],
  [
    'POST',
    (_, o) => `/api/v1/crew/users/${o.user}/identity-documents`,
    (x) => ({ ...DOCUMENT, uploadId: x.upload }),
    ['uploadId'],
    RECORD_WRITERS,
  ],
  ['PATCH', (_, o) => `/api/v1/crew/identity-documents/${o.document}`, (x) => ({ uploadId: x.upload }), ['uploadId'], RECORD_WRITERS],
  [
    'POST',
    (_, o) => `/api/v1/crew/users/${o.user}/certificates`,
    (x) => ({ certificateType: 'other', uploadId: x.upload }),
    ['uploadId'],
    RECORD_WRITERS,
  ],
  ['PATCH', (_, o) => `/api/v1/crew/certificates/${o.certificate}`, (x) => ({ uploadId: x.upload }), ['uploadId'], RECORD_WRITERS],
  ['POST', () => `${BULK}/create`, (x, o) => ({ userIds: [x.user], shipId: o.ship, role: 'Cook' }), ['userIds', 0], ADMIN],
  ['POST', () => `${BULK}/create`, (x, o) => ({ userIds: [o.user], shipId: x.ship, role: 'Cook' }), ['shipId'], ADMIN],
  ['POST', () => `${BULK}/courses`, (x, o) => ({ assignmentIds: [o.assignment], courseIds: [x.course] }), ['courseIds', 0], ADMIN],
  ['POST', () => `${BULK}/courses`, (x, o) => ({ assignmentIds: [o.assignment], curriculumId: x.curriculum }), ['curriculumId'], ADMIN],
]

/** Bulk lists of assignment ids: a stranger's id is a per-item failure, never a 422 (DECISIONS §9). */
const perItemRows: [string, (x: Seeded, o: Seeded) => object, totals: object][] = [
  ['update', (x) => ({ assignmentIds: [x.assignment], role: 'Cook' }), { assignments: [], errors: [expect.any(String)] }],
  ['courses', (x, o) => ({ assignmentIds: [x.assignment], courseIds: [o.course] }), { totalCoursesAssigned: 0 }],
  ['remove-courses', (x, o) => ({ assignmentIds: [x.assignment], courseIds: [o.course] }), { totalCoursesRemoved: 0 }],
]

/** The caller's lists: none holds a stranger's id; each holds the caller's own row of that kind (or none). */
const listRows: [Ids, Kind | null, Role[]?][] = [
  [() => '/api/v1/shared/users?limit=1000', 'user'],
  [() => '/api/v1/shared/ships?limit=1000', 'ship'],
  [() => '/api/v1/courses?limit=1000', 'course'],
  [() => '/api/v1/learn/courses?limit=1000', 'course'],
  [() => '/api/v1/learn/curriculums?limit=1000', 'curriculum'],
  [() => '/api/v1/assignments?limit=1000', 'assignment'],
  [() => '/api/v1/learn/assignments?limit=1000', 'assignment'],
  [() => '/api/v1/learn/registrations?limit=1000', 'registration'],
  [() => '/api/v1/crew/verifications?limit=1000', 'document'],
  [() => '/api/v1/crew/roster?limit=1000', 'user'],
  [() => '/api/v1/learn/admin/analytics/course-difficulty?limit=1000', 'course', ADMIN],
  [(x) => `/api/v1/assignments?user_id=${x.user}`, null],
  [(x) => `/api/v1/assignments?ship_id=${x.ship}`, null],
  [(x) => `/api/v1/learn/registrations?assignment_id=${x.assignment}`, null],
  [(x) => `/api/v1/learn/registrations?course_id=${x.course}`, null],
]

/** The crew member's own lists: exactly their own row. */
const ownListRows: [Ids, Kind][] = [
  [() => '/api/v1/shared/users', 'user'],
  [() => '/api/v1/users/me', 'assignment'],
  [() => '/api/v1/assignments', 'assignment'],
  [() => '/api/v1/learn/assignments', 'assignment'],
  [() => '/api/v1/learn/registrations', 'registration'],
  ...(['identity-documents', 'certificates', 'experience', 'next-of-kin'] as const).map((path, i): [Ids, Kind] => [
    (_, o) => `/api/v1/crew/users/${o.user}/${path}`,
    (['document', 'certificate', 'experience', 'nextOfKin'] as const)[i],
  ]),
]

const NAMES = Object.fromEntries(Object.keys(unknownIds()).map((k) => [k, `{${k}}`])) as unknown as Seeded
const OWN = Object.fromEntries(Object.keys(NAMES).map((k) => [k, `{own ${k}}`])) as unknown as Seeded
const named = <T extends [Method, Ids, ...unknown[]]>(rows: T[]) => rows.map((row) => [`${row[0]} ${row[1](NAMES, OWN)}`, row] as const)
const invalidAt = (loc: (string | number)[]) => ({ detail: [{ loc: ['body', ...loc], msg: expect.any(String), type: expect.any(String) }] })
const allowed = (user: TestUser, roles?: Role[]) => !roles || roles.includes(user.role)
const send = (api: Client, method: Method, url: string, body?: unknown) =>
  method === 'GET' ? api.get(url) : method === 'DELETE' ? api.delete(url) : api[method === 'POST' ? 'post' : 'patch'](url, body)
const idsOf = (body: any): string[] =>
  (Array.isArray(body) ? body : (body.items ?? body.assignments ?? body.data)).map((i: any) => i.id ?? i.courseId ?? i.targetId)

const t = useTestApp()
let A: TestOrg
let B: TestOrg
let c1: TestUser
const seeded = {} as Record<'a' | 'b' | 'c1', Seeded>
const before = {} as Record<'a' | 'b', unknown>

beforeAll(async () => {
  const db = t.database.db
  ;[A, B] = await Promise.all([createOrg(t.app, db), createOrg(t.app, db)])
  c1 = await A.addUser('crew')
  const bUser = await B.admin.api.post('/api/v1/shared/users', {
    email: `b-${uuidv7()}@example.test`,
    firstName: 'Bo',
    lastName: 'B',
    role: 'crew',
  })
  expect(bUser.status).toBe(201)
  seeded.b = await seed(t.app, B.id, B.admin.api, B.admin.api, bUser.body.id)
  seeded.a = await seed(t.app, A.id, A.admin.api, A.crew.api, A.crew.id)
  seeded.c1 = await seed(t.app, A.id, A.admin.api, c1.api, c1.id)
  before.b = await snapshot(B.admin.api, seeded.b)
  before.a = await snapshot(A.admin.api, seeded.a)
})

// "Not Found" (no such route) never matches /not found$/: a mistyped path cannot pass for a refusal.
/** The same request for the stranger's ids and for unknown ones: identical answers once the ids are masked. */
async function reachFor(api: Client, method: Method, path: Ids, body: (x: Seeded, o: Seeded) => unknown, x: Seeded, o: Seeded) {
  const unknown = unknownIds()
  const [theirs, missing] = await Promise.all([
    send(api, method, path(x, o), body(x, o)),
    send(api, method, path(unknown, o), body(unknown, o)),
  ])
  expect(masked(theirs, x, o)).toEqual(masked(missing, unknown, o))
  return theirs
}

describe.each(['admin', 'officeAdmin'] as const)("another organization's rows, as A's %s", (who) => {
  it.each(named([...personalRows, ...orgRows]))('%s → 404 like an unknown id', async (_, [method, path, body, roles]) => {
    const user = A[who]
    const res = await reachFor(user.api, method, path, () => body, seeded.b, seeded.a)
    if (allowed(user, roles)) expect(res.body).toEqual({ detail: expect.stringMatching(/not found$/) })
    expect(res.status).toBe(allowed(user, roles) ? 404 : 403)
  })

  it.each(named(refRows))('%s naming their row in the body → 422 at the field', async (_, [method, path, body, loc, roles]) => {
    const user = A[who]
    const res = await reachFor(user.api, method, path, body, seeded.b, seeded.a)
    expect(res.status).toBe(allowed(user, roles) ? 422 : 403)
    if (allowed(user, roles)) expect(res.body).toEqual(invalidAt(loc))
  })

  it.each(listRows.map((row) => [row[0](NAMES, OWN), row] as const))('GET %s holds none of their ids', async (_, [path, kind, roles]) => {
    const user = A[who]
    const res = await user.api.get(path(seeded.b, seeded.a))
    expect(res.status).toBe(allowed(user, roles) ? 200 : 403)
    if (!allowed(user, roles)) return
    for (const id of Object.values(seeded.b)) expect(res.text).not.toContain(id)
    if (kind) expect(idsOf(res.body)).toContain(seeded.a[kind])
    else expect(res.body).toMatchObject({ items: [] })
  })
})

describe("another organization's assignment ids in a bulk list, as A's admin", () => {
  it.each(perItemRows)('bulk/%s → a per-item failure', async (action, body, totals) => {
    const res = await reachFor(A.admin.api, 'POST', () => `${BULK}/${action}`, body, seeded.b, seeded.a)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ updatedCount: 0, failedAssignmentIds: [seeded.b.assignment], ...totals })
  })
})

describe("another organization's course ids in remove-courses, as A's admin", () => {
  // They name what to remove, not references to check (DECISIONS §4): skipped like unknown ones.
  it('bulk/remove-courses → 200, nothing removed', async () => {
    const body = (x: Seeded, o: Seeded) => ({ assignmentIds: [o.assignment], courseIds: [x.course] })
    const res = await reachFor(A.admin.api, 'POST', () => `${BULK}/remove-courses`, body, seeded.b, seeded.a)
    expect([res.status, res.body]).toEqual([200, { updatedCount: 0, totalCoursesRemoved: 0, failedAssignmentIds: [] }])
  })
})

describe("crew: another crew member's records in the same organization", () => {
  const crewRows = personalRows.filter(([, , , roles]) => !roles || roles.includes('crew'))

  it.each(named(crewRows))('%s → 404 like an unknown id', async (_, [method, path, body]) => {
    const res = await reachFor(c1.api, method, path, () => body, seeded.a, seeded.c1)
    expect([res.status, res.body]).toEqual([404, { detail: expect.stringMatching(/not found$/) }])
  })

  it.each(named(refRows.filter(([, , , , roles]) => roles.includes('crew'))))('%s naming their upload → 422', async (_, row) => {
    const [method, path, body, loc] = row
    const res = await reachFor(c1.api, method, path, body, seeded.a, seeded.c1)
    expect([res.status, res.body]).toEqual([422, invalidAt(loc)])
  })

  it.each(ownListRows.map((row) => [row[0](NAMES, OWN), row] as const))('GET %s shows only their own row', async (_, [path, kind]) => {
    const res = await c1.api.get(path(seeded.a, seeded.c1))
    expect(res.status).toBe(200)
    expect(idsOf(res.body)).toEqual([seeded.c1[kind]])
  })
})

describe('afterwards', () => {
  it("every row reached for is exactly as before, as its own organization's admin sees it", async () => {
    expect(await snapshot(B.admin.api, seeded.b)).toEqual(before.b)
    expect(await snapshot(A.admin.api, seeded.a)).toEqual(before.a)
  })
})
