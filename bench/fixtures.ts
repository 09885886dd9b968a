import { type Kysely, sql } from 'kysely'
import { fromPostgres } from '../src/db/database.js'

// The ids the scenarios spread their requests over, all from the largest organization.
export interface Fixtures {
  orgId: string
  adminId: string
  crewUserIds: string[]
  shipIds: string[]
  assignmentIds: string[]
  registrationIds: string[]
  spareCourseIds: string[]
  /** Registrations with xAPI statements: each with its learner (the statements' actor) and its course's activity. */
  xapiRegistrations: XapiRegistration[]
}

export interface XapiRegistration {
  registration: string
  actor: { objectType: 'Agent'; mbox: string }
  activityId: string
}

export const POOL = { users: 1_000, ships: 200, assignments: 51_000, registrations: 20_000, spareCourses: 10, xapiRegistrations: 2_000 }

// Ordered by id, which the seed derives from a hash: an even spread over the organization.
/** The newest statement of each of the first registrations by id (xapi_statements_registration_idx, in its order). */
async function xapiRegistrations(db: Kysely<any>, orgId: string): Promise<XapiRegistration[]> {
  const { rows } = await sql<{ registration: string; actor: XapiRegistration['actor']; activity_id: string }>`
    select distinct on (registration) registration, statement->'actor' as actor, activity_id from xapi_statements
    where organization_id = ${orgId} and registration is not null
    order by registration, stored desc, seq desc limit ${POOL.xapiRegistrations}`.execute(db)
  return rows.map((row) => ({ registration: row.registration, actor: row.actor, activityId: row.activity_id }))
}

async function ids(db: Kysely<any>, table: string, orgId: string, limit: number, extra = sql``): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    select id from ${sql.table(table)} where organization_id = ${orgId} ${extra} order by id limit ${limit}`.execute(db)
  return rows.map((r) => r.id)
}

export async function loadFixtures(url: string, orgId: string, adminId: string): Promise<Fixtures> {
  const database = fromPostgres(url, 2)
  const db = database.db as Kysely<any>
  try {
    return {
      orgId,
      adminId,
      crewUserIds: await ids(db, 'users', orgId, POOL.users, sql`and role = 'crew'`),
      shipIds: await ids(db, 'ships', orgId, POOL.ships),
      assignmentIds: await ids(db, 'assignments', orgId, POOL.assignments),
      registrationIds: await ids(db, 'registrations', orgId, POOL.registrations),
      // Courses no assignment has: removing them from assignments leaves the data as it was.
      spareCourseIds: await ids(
        db,
        'courses',
        orgId,
        POOL.spareCourses,
        sql`and not exists (select 1 from assignment_courses ac where ac.course_id = courses.id)`,
      ),
      xapiRegistrations: await xapiRegistrations(db, orgId),
    }
  } finally {
    await database.close()
  }
}
