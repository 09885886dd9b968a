import type { Selectable } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { Db } from '../../db/database.js'
import type { CurriculumsTable } from '../../db/schema.js'
import { iso } from '../../lib/dates.js'
import { isForeignKeyViolation } from '../../lib/db-errors.js'
import { notFound } from '../../lib/errors.js'
import { newestFirstPage } from '../../lib/pagination.js'
import type { ListQuery } from '../../lib/schemas.js'
import { containsPattern } from '../../lib/search.js'
import type { Curriculum, CurriculumCourse } from './curriculums.schemas.js'

type CurriculumRow = Selectable<CurriculumsTable>

const toCurriculum = (row: CurriculumRow, courses: CurriculumCourse[] = []): Curriculum => ({
  id: row.id,
  title: row.title,
  description: row.description,
  courses,
  createdAt: iso(row.created_at),
})

/** The courses of several curriculums in one statement, each list in the order the courses were added. */
async function coursesOf(db: Db, orgId: string, curriculumIds: string[]): Promise<Map<string, CurriculumCourse[]>> {
  const byCurriculum = new Map<string, CurriculumCourse[]>()
  if (curriculumIds.length === 0) return byCurriculum
  const rows = await db
    .selectFrom('curriculum_courses')
    .innerJoin('courses', 'courses.id', 'curriculum_courses.course_id')
    .select(['curriculum_courses.curriculum_id', 'courses.id', 'courses.title'])
    .where('curriculum_courses.organization_id', '=', orgId)
    .where('curriculum_courses.curriculum_id', 'in', curriculumIds)
    .orderBy('curriculum_courses.position')
    .execute()
  for (const row of rows) {
    const list = byCurriculum.get(row.curriculum_id) ?? []
    list.push({ courseId: row.id, title: row.title })
    byCurriculum.set(row.curriculum_id, list)
  }
  return byCurriculum
}

async function withCourses(db: Db, orgId: string, row: CurriculumRow | undefined): Promise<Curriculum | undefined> {
  if (!row) return undefined
  const courses = await coursesOf(db, orgId, [row.id])
  return toCurriculum(row, courses.get(row.id))
}

export async function insertCurriculum(db: Db, orgId: string, fields: { title: string; description: string }): Promise<Curriculum> {
  const row = await db
    .insertInto('curriculums')
    .values({ id: uuidv7(), organization_id: orgId, ...fields })
    .returningAll()
    .executeTakeFirstOrThrow()
  return toCurriculum(row)
}

export async function findCurriculum(db: Db, orgId: string, curriculumId: string): Promise<Curriculum | undefined> {
  const row = await db
    .selectFrom('curriculums')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('id', '=', curriculumId)
    .executeTakeFirst()
  return withCourses(db, orgId, row)
}

export async function updateCurriculum(db: Db, orgId: string, curriculumId: string, changes: { title?: string; description?: string }) {
  if (Object.keys(changes).length === 0) return findCurriculum(db, orgId, curriculumId)
  const row = await db
    .updateTable('curriculums')
    .set({ ...changes, updated_at: new Date() })
    .where('organization_id', '=', orgId)
    .where('id', '=', curriculumId)
    .returningAll()
    .executeTakeFirst()
  return withCourses(db, orgId, row)
}

/** Its course list goes with it (cascade); the courses and their registrations stay. */
export async function deleteCurriculum(db: Db, orgId: string, curriculumId: string): Promise<boolean> {
  const result = await db.deleteFrom('curriculums').where('organization_id', '=', orgId).where('id', '=', curriculumId).executeTakeFirst()
  return result.numDeletedRows > 0n
}

export async function listCurriculums(db: Db, orgId: string, query: ListQuery) {
  let filtered = db.selectFrom('curriculums').where('organization_id', '=', orgId)
  if (query.search) filtered = filtered.where('title', 'ilike', containsPattern(query.search))
  const page = await newestFirstPage(
    filtered,
    (qb) => qb.selectAll(),
    'curriculums',
    query,
    (row) => row,
  )
  const courses = await coursesOf(
    db,
    orgId,
    page.items.map((row) => row.id),
  )
  return { ...page, items: page.items.map((row) => toCurriculum(row, courses.get(row.id))) }
}

/** 404 for a curriculum or course the caller cannot see, checked in one statement. */
export async function assertReachable(db: Db, orgId: string, curriculumId: string, courseId: string): Promise<void> {
  const found = await db
    .selectNoFrom((eb) => [
      eb.exists(eb.selectFrom('curriculums').where('organization_id', '=', orgId).where('id', '=', curriculumId)).as('curriculum'),
      eb.exists(eb.selectFrom('courses').where('organization_id', '=', orgId).where('id', '=', courseId)).as('course'),
    ])
    .executeTakeFirstOrThrow()
  if (!found.curriculum) throw notFound('Curriculum')
  if (!found.course) throw notFound('Course')
}

/** Idempotent: a course already in the curriculum keeps its place. */
export async function addCourse(db: Db, orgId: string, curriculumId: string, courseId: string): Promise<void> {
  try {
    await db
      .insertInto('curriculum_courses')
      .values({ curriculum_id: curriculumId, course_id: courseId, organization_id: orgId })
      .onConflict((oc) => oc.columns(['curriculum_id', 'course_id']).doNothing())
      .execute()
  } catch (error) {
    // The curriculum or the course was deleted since it was checked.
    if (isForeignKeyViolation(error)) throw notFound('Curriculum or course')
    throw error
  }
}

export async function removeCourse(db: Db, orgId: string, curriculumId: string, courseId: string): Promise<void> {
  await db
    .deleteFrom('curriculum_courses')
    .where('organization_id', '=', orgId)
    .where('curriculum_id', '=', curriculumId)
    .where('course_id', '=', courseId)
    .execute()
}
