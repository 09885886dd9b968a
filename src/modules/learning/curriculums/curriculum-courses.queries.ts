import { type RawBuilder, sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { Actor } from '../../../lib/access.js'
import { isForeignKeyViolation } from '../../../lib/db-errors.js'
import { notFound } from '../../../lib/errors.js'
import { changesSql, eventsInsert } from '../../../lib/events.js'
import { uuidv7s } from '../../../lib/ids.js'
import { lockOrgRow } from '../../../lib/locked-row.queries.js'
import { coursesSql, toCurriculum } from './curriculums.queries.js'
import type { Curriculum } from './curriculums.schemas.js'

// Adding or removing a course: the curriculum is locked first, in a statement of its own (as its
// updates and deletes do), then one statement changes its course list and writes its
// `curriculum.updated` event, `changes.courses` (none when nothing changed). That statement reads the
// list from its snapshot, before its own change: the list after is the one before with the change applied.

/** The list after adding the course `w` inserted (none when it was there): new rows take the last place. */
const withAdded = sql<unknown>`o.courses || coalesce((select jsonb_agg(jsonb_build_object('courseId', co.id, 'title', co.title))
    from w join courses co on co.id = w.course_id), '[]'::jsonb)`

/** The list after removing the course `w` deleted. */
const withoutRemoved = sql<unknown>`coalesce((select jsonb_agg(x.v order by x.ord) from jsonb_array_elements(o.courses) with ordinality x(v, ord)
    where not exists (select from w where w.course_id::text = x.v ->> 'courseId')), '[]'::jsonb)`

async function changeCourses(db: Db, actor: Actor, curriculumId: string, write: 'add' | 'remove', courseId: string): Promise<Curriculum> {
  const { orgId } = actor
  return db.transaction().execute(async (trx) => {
    if (!(await lockOrgRow(trx, 'curriculums', orgId, curriculumId))) throw notFound('Curriculum')
    const row = await trx
      .with('o', (qc) =>
        qc
          .selectFrom('curriculums')
          .selectAll()
          .select(coursesSql('curriculums').as('courses'))
          .where('organization_id', '=', orgId)
          .where('id', '=', curriculumId),
      )
      .with('w', (qc) =>
        write === 'add'
          ? qc
              .insertInto('curriculum_courses')
              .values({ curriculum_id: curriculumId, course_id: courseId, organization_id: orgId })
              .onConflict((oc) => oc.columns(['curriculum_id', 'course_id']).doNothing())
              .returning('course_id')
          : qc
              .deleteFrom('curriculum_courses')
              .where('organization_id', '=', orgId)
              .where('curriculum_id', '=', curriculumId)
              .where('course_id', '=', courseId)
              .returning('course_id'),
      )
      .with('c', (qc) =>
        qc
          .selectFrom('o')
          .selectAll()
          .select((write === 'add' ? withAdded : withoutRemoved).as('after_courses')),
      )
      .with('audit', (qc) => eventsInsert(qc, actor, 'curriculum.updated', 'curriculum', coursesChanged, uuidv7s(1)))
      .selectFrom('c')
      .select(['c.id', 'c.organization_id', 'c.title', 'c.description', 'c.created_at', 'c.updated_at', 'c.after_courses as courses'])
      .executeTakeFirstOrThrow()
    return toCurriculum(row, row.courses as Curriculum['courses'])
  })
}

const coursesChanged: RawBuilder<{ target_id: string; data: unknown }> =
  sql`select c.id as target_id, jsonb_build_object('changes', ch.changes) as data
  from c cross join lateral (select jsonb_build_object('courses', c.courses) as before, jsonb_build_object('courses', c.after_courses) as after) bw
  cross join lateral (select ${changesSql(sql.ref('bw.before'), sql.ref('bw.after'))} as changes) ch where ch.changes <> '{}'::jsonb`

/** Idempotent: a course already in the curriculum keeps its place. */
export async function addCourse(db: Db, actor: Actor, curriculumId: string, courseId: string): Promise<Curriculum> {
  try {
    return await changeCourses(db, actor, curriculumId, 'add', courseId)
  } catch (error) {
    // The course was deleted since it was checked.
    if (isForeignKeyViolation(error)) throw notFound('Curriculum or course')
    throw error
  }
}

/** Idempotent: removing a course that is not there changes nothing. */
export const removeCourse = (db: Db, actor: Actor, curriculumId: string, courseId: string) =>
  changeCourses(db, actor, curriculumId, 'remove', courseId)
