import { type Selectable, sql } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { Db } from '../../../db/database.js'
import type { CurriculumsTable } from '../../../db/schema.js'
import type { Actor } from '../../../lib/access.js'
import { iso, isoSql } from '../../../lib/dates.js'
import { notFound } from '../../../lib/errors.js'
import { type EventSource, eventsInsert, objectRows, updatedRows } from '../../../lib/events.js'
import { uuidv7s } from '../../../lib/ids.js'
import { lockOrgRow } from '../../../lib/locked-row.queries.js'
import { newestFirstPage } from '../../../lib/pagination.js'
import type { ListQuery } from '../../../lib/schemas.js'
import { containsPattern } from '../../../lib/search.js'
import type { Curriculum, CurriculumCourse } from './curriculums.schemas.js'

type CurriculumRow = Selectable<CurriculumsTable>

export const toCurriculum = (row: CurriculumRow, courses: CurriculumCourse[] = []): Curriculum => ({
  id: row.id,
  title: row.title,
  description: row.description,
  courses,
  createdAt: iso(row.created_at),
})

/** The courses of the curriculum under `alias` as a JSON array of the wire shape, in the order they were added. */
export const coursesSql = (alias: string) => sql<CurriculumCourse[]>`coalesce((
    select jsonb_agg(jsonb_build_object('courseId', co.id, 'title', co.title) order by cc.position)
    from curriculum_courses cc join courses co on co.id = cc.course_id
    where cc.organization_id = ${sql.ref(`${alias}.organization_id`)} and cc.curriculum_id = ${sql.ref(`${alias}.id`)}
  ), '[]'::jsonb)`

/** A curriculum with its courses, in one statement. */
export async function findCurriculum(db: Db, orgId: string, curriculumId: string): Promise<Curriculum | undefined> {
  const row = await db
    .selectFrom('curriculums')
    .selectAll()
    .select(coursesSql('curriculums').as('courses'))
    .where('organization_id', '=', orgId)
    .where('id', '=', curriculumId)
    .executeTakeFirst()
  return row && toCurriculum(row, row.courses)
}

/** A curriculum in its wire shape as SQL over `alias`, for the events the statements below write. */
const curriculumWire = (alias: string) => ({
  id: sql.ref(`${alias}.id`),
  title: sql.ref(`${alias}.title`),
  description: sql.ref(`${alias}.description`),
  courses: coursesSql(alias),
  createdAt: isoSql(sql.ref(`${alias}.created_at`)),
})

/** The wire fields a PATCH can change (its courses change through their own routes). */
const changeableWire = (alias: string) => {
  const { courses: _, ...fields } = curriculumWire(alias)
  return fields
}

/** Creates the curriculum (no courses yet) and its `curriculum.created` event in one statement. */
export async function insertCurriculum(
  db: Db,
  source: EventSource | Actor,
  fields: { title: string; description: string },
): Promise<Curriculum> {
  const row = await db
    .with('a', (qc) =>
      qc
        .insertInto('curriculums')
        .values({ id: uuidv7(), organization_id: source.orgId, ...fields })
        .returningAll(),
    )
    .with('audit', (qc) => eventsInsert(qc, source, 'curriculum.created', 'curriculum', objectRows(curriculumWire('a'), 'a'), uuidv7s(1)))
    .selectFrom('a')
    .selectAll()
    .executeTakeFirstOrThrow()
  return toCurriculum(row)
}

// The two writes below lock the curriculum first, in a statement of its own: adding or removing a
// course locks it too, so the next statement's snapshot holds every course change committed before.
// One statement would read the course list from a snapshot taken before it waited for that lock.

/**
 * Updates the curriculum's fields and writes its `curriculum.updated` event (none when nothing
 * changed); the answer with its courses comes from the same statement. Undefined when there is none.
 */
export async function updateCurriculum(
  db: Db,
  source: EventSource | Actor,
  curriculumId: string,
  changes: { title?: string; description?: string },
): Promise<Curriculum | undefined> {
  const { orgId } = source
  if (Object.keys(changes).length === 0) return findCurriculum(db, orgId, curriculumId)
  const row = await db.transaction().execute(async (trx) => {
    if (!(await lockOrgRow(trx, 'curriculums', orgId, curriculumId))) return undefined
    return trx
      .with('o', (qc) => qc.selectFrom('curriculums').selectAll().where('organization_id', '=', orgId).where('id', '=', curriculumId))
      .with('a', (qc) =>
        qc
          .updateTable('curriculums')
          .set({ ...changes, updated_at: new Date() })
          .where('organization_id', '=', orgId)
          .where('id', '=', curriculumId)
          .returningAll(),
      )
      .with('audit', (qc) => eventsInsert(qc, source, 'curriculum.updated', 'curriculum', updatedRows(changeableWire), uuidv7s(1)))
      .selectFrom('a')
      .selectAll()
      .select(coursesSql('a').as('courses'))
      .executeTakeFirstOrThrow()
  })
  return row && toCurriculum(row, row.courses)
}

/** Deletes the curriculum (its course list cascades; the courses stay) and writes its `curriculum.deleted` event, courses included. */
export async function deleteCurriculum(db: Db, source: EventSource | Actor, curriculumId: string): Promise<boolean> {
  const { orgId } = source
  return db.transaction().execute(async (trx) => {
    if (!(await lockOrgRow(trx, 'curriculums', orgId, curriculumId))) return false
    await trx
      .with('a', (qc) => qc.deleteFrom('curriculums').where('organization_id', '=', orgId).where('id', '=', curriculumId).returningAll())
      .with('audit', (qc) => eventsInsert(qc, source, 'curriculum.deleted', 'curriculum', objectRows(curriculumWire('a'), 'a'), uuidv7s(1)))
      .selectFrom('a')
      .select('a.id')
      .executeTakeFirstOrThrow()
    return true
  })
}

export async function listCurriculums(db: Db, orgId: string, query: ListQuery) {
  let filtered = db.selectFrom('curriculums').where('organization_id', '=', orgId)
  if (query.search) filtered = filtered.where('title', 'ilike', containsPattern(query.search))
  return newestFirstPage(
    filtered,
    (qb) => qb.selectAll().select(coursesSql('curriculums').as('courses')),
    'curriculums',
    query,
    (row) => toCurriculum(row, row.courses),
  )
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
