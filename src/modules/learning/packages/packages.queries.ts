import { type Selectable, sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { CourseImportsTable, ImportError } from '../../../db/schema.js'
import { iso, isoSql } from '../../../lib/dates.js'
import { type EventSource, type EventType, typedEventsInsert, wireJson } from '../../../lib/events.js'
import { uuidv7s } from '../../../lib/ids.js'
import type { ActivityNode, ParsedPackage } from './package-model.js'
import type { CourseImport, CourseStructure } from './packages.schemas.js'
import { activitySummaries } from './scorm-sequencing-summary.js'

export type ImportRow = Selectable<CourseImportsTable>

export const toCourseImport = (row: ImportRow): CourseImport => ({
  id: row.id,
  status: row.status,
  standard: row.standard,
  courseId: row.course_id,
  errors: row.errors,
  createdAt: iso(row.created_at),
  finishedAt: row.finished_at && iso(row.finished_at),
})

export interface NewImport {
  id: string
  uploadId: string
  courseId: string | null
  createdBy: string
  requestId: string
}

export function insertImport(db: Db, orgId: string, job: NewImport): Promise<ImportRow> {
  return db
    .insertInto('course_imports')
    .values({
      id: job.id,
      organization_id: orgId,
      upload_id: job.uploadId,
      course_id: job.courseId,
      status: 'running',
      created_by: job.createdBy,
      request_id: job.requestId,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export function findImport(db: Db, orgId: string, importId: string) {
  return db.selectFrom('course_imports').selectAll().where('organization_id', '=', orgId).where('id', '=', importId).executeTakeFirst()
}

/** The imports still to do, every organization's, oldest first, with how long each has run (by the database's clock). */
export function runningImports(db: Db) {
  return db
    .selectFrom('course_imports')
    .selectAll()
    .select(sql<number>`extract(epoch from now() - created_at)::float8`.as('running_seconds'))
    .where('status', '=', 'running')
    .orderBy('id')
    .execute()
}

/** The import's status now: `failed` once cancelled, or ended by another run. */
export async function importStatus(db: Db, row: ImportRow): Promise<ImportRow['status'] | undefined> {
  const found = await db
    .selectFrom('course_imports')
    .select('status')
    .where('organization_id', '=', row.organization_id)
    .where('id', '=', row.id)
    .executeTakeFirst()
  return found?.status
}

/** Counts a run that failed for a reason outside the package: the runs so far, or undefined once it is no longer running. */
export async function countFailedRun(db: Db, row: ImportRow): Promise<number | undefined> {
  const counted = await db
    .updateTable('course_imports')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('organization_id', '=', row.organization_id)
    .where('id', '=', row.id)
    .where('status', '=', 'running')
    .returning('attempts')
    .executeTakeFirst()
  return counted?.attempts
}

/** An import in its wire shape as SQL over `alias`, for the event of its end. */
const importWire = (alias: string) =>
  wireJson({
    id: sql.ref(`${alias}.id`),
    status: sql.ref(`${alias}.status`),
    standard: sql.ref(`${alias}.standard`),
    courseId: sql.ref(`${alias}.course_id`),
    errors: sql.ref(`${alias}.errors`),
    createdAt: isoSql(sql.ref(`${alias}.created_at`)),
    finishedAt: isoSql(sql.ref(`${alias}.finished_at`)),
  })

/**
 * The import's end, complete or failed, with its `course_import.completed` or `.failed` event in the
 * same statement. Undefined when another run ended it first (and no event).
 */
export function finishImport(
  db: Db,
  source: EventSource,
  row: ImportRow,
  outcome: { status: 'complete' | 'failed'; standard: ImportRow['standard']; courseId: string | null; errors: ImportError[] },
) {
  const type: EventType = outcome.status === 'complete' ? 'course_import.completed' : 'course_import.failed'
  return db
    .with('a', (qc) =>
      qc
        .updateTable('course_imports')
        .set({
          status: outcome.status,
          standard: outcome.standard,
          course_id: outcome.courseId,
          errors: JSON.stringify(outcome.errors),
          finished_at: new Date(),
        })
        .where('organization_id', '=', row.organization_id)
        .where('id', '=', row.id)
        .where('status', '=', 'running')
        .returningAll(),
    )
    .with('audit', (qc) =>
      typedEventsInsert(
        qc,
        source,
        'course_import',
        sql`select ${type}::text as type, a.id as target_id, ${importWire('a')} as data from a`,
        uuidv7s(1),
      ),
    )
    .selectFrom('a')
    .selectAll()
    .executeTakeFirst()
}

/** The package version, its AUs and its files (one statement each whatever their number) and the course pointing at it. */
export async function insertPackage(
  db: Db,
  orgId: string,
  pkg: {
    id: string
    courseId: string
    prefix: string
    parsed: ParsedPackage
    files?: readonly { path: string; bytes: number; sha256: string }[]
  },
) {
  const { parsed } = pkg
  await db
    .insertInto('course_packages')
    .values({
      id: pkg.id,
      organization_id: orgId,
      course_id: pkg.courseId,
      standard: parsed.standard,
      storage_prefix: pkg.prefix,
      publisher_id: parsed.publisherId,
      blocks: JSON.stringify(parsed.blocks),
      activity_tree: parsed.activityTree ? JSON.stringify(parsed.activityTree) : null,
    })
    .execute()
  const aus = parsed.aus.map((au, index) => ({
    au_index: index,
    publisher_id: au.publisherId,
    title: au.title,
    url: au.url,
    move_on: au.moveOn,
    mastery_score: au.masteryScore,
    launch_method: au.launchMethod,
    launch_parameters: au.launchParameters,
    entitlement_key: au.entitlementKey,
    activity_type: au.activityType,
    scorm_asset: au.scormAsset ?? false,
    objective_ids: au.objectiveIds ?? [],
  }))
  await sql`
    insert into course_aus (package_id, au_index, publisher_id, title, url, move_on, mastery_score, launch_method,
      launch_parameters, entitlement_key, activity_type, scorm_asset, objective_ids)
    select ${pkg.id}::uuid, a.au_index, a.publisher_id, a.title, a.url, a.move_on, a.mastery_score, a.launch_method,
      a.launch_parameters, a.entitlement_key, a.activity_type, a.scorm_asset, a.objective_ids
    from jsonb_to_recordset(${JSON.stringify(aus)}::jsonb) as a(au_index integer, publisher_id text, title text, url text,
      move_on text, mastery_score double precision, launch_method text, launch_parameters text, entitlement_key text,
      activity_type text, scorm_asset boolean, objective_ids jsonb)`.execute(db)
  // The files a download for offline play lists (DECISIONS §16); a version made without them lists none.
  if (pkg.files?.length)
    await sql`
      insert into course_package_files (package_id, path, bytes, sha256)
      select ${pkg.id}::uuid, f.path, f.bytes, f.sha256
      from jsonb_to_recordset(${JSON.stringify(pkg.files.map(({ path, bytes, sha256 }) => ({ path, bytes, sha256 })))}::jsonb)
        as f(path text, bytes bigint, sha256 text)`.execute(db)
  await db.updateTable('courses').set({ package_id: pkg.id }).where('organization_id', '=', orgId).where('id', '=', pkg.courseId).execute()
}

/** The current package's structure of a course of the organization; undefined for none (or a pointer-only course). */
export async function findStructure(db: Db, orgId: string, courseId: string): Promise<CourseStructure | undefined> {
  const rows = await db
    .selectFrom('courses as c')
    .innerJoin('course_packages as p', 'p.id', 'c.package_id')
    .leftJoin('course_aus as a', 'a.package_id', 'p.id')
    .select([
      'p.standard',
      'p.activity_tree',
      'a.au_index',
      'a.publisher_id',
      'a.title',
      'a.url',
      'a.move_on',
      'a.mastery_score',
      'a.launch_method',
    ])
    .where('c.organization_id', '=', orgId)
    .where('c.id', '=', courseId)
    .orderBy('a.au_index')
    .execute()
  if (rows.length === 0) return undefined
  const aus = rows
    .filter((row) => row.au_index !== null)
    .map((row) => ({
      index: row.au_index!,
      id: row.publisher_id!,
      title: row.title!,
      url: row.url!,
      moveOn: row.move_on as CourseStructure['aus'][number]['moveOn'],
      masteryScore: row.mastery_score,
      launchMethod: row.launch_method as CourseStructure['aus'][number]['launchMethod'],
    }))
  const tree = rows[0].activity_tree as ActivityNode | null
  const activities = tree && activitySummaries(tree, new Map(aus.map((au) => [au.id, au.index])))
  return { standard: rows[0].standard, ...(activities && { activities }), aus }
}

/** Locks the import and answers its status: `running`, or how another run or a cancel ended it. */
export async function lockImport(db: Db, row: ImportRow): Promise<ImportRow['status']> {
  const locked = await db
    .selectFrom('course_imports')
    .select('status')
    .where('organization_id', '=', row.organization_id)
    .where('id', '=', row.id)
    .forUpdate()
    .executeTakeFirstOrThrow()
  return locked.status
}
