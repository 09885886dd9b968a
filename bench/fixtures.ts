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
}

export const POOL = { users: 1_000, ships: 200, assignments: 51_000, registrations: 20_000, spareCourses: 10 }

// Ordered by id, which the seed derives from a hash: an even spread over the organization.
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
    }
  } finally {
    await database.close()
  }
}
