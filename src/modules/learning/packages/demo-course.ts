import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { sql } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { insertCourse } from '../courses/courses.queries.js'
import { type ImportDeps, importHandler } from './packages.import.js'
import { insertImport } from './packages.queries.js'

/**
 * The demo organization's course on a first start (issue 28): the cmi5 package the install's build
 * made from `demo-course/` (dist/demo-course.zip) goes through the import every uploaded package takes
 * (an upload, an import job replacing a course's package, the job's handler run at once), and the
 * course is registered on the demo crew member's current assignment, so a newcomer can take it.
 * Without the zip (an install without devDependencies) the demo has no course to take.
 */
export async function seedDemoCourse(
  deps: ImportDeps,
  demo: { organizationId: string; adminId: string; crewId: string },
  zipPath: string,
): Promise<string | null> {
  const size = await stat(zipPath).then(
    (found) => found.size,
    () => null,
  )
  if (size === null) return null
  const { db, storage } = deps
  const orgId = demo.organizationId
  const source = { orgId, actor: { userId: demo.adminId, role: 'admin' as const }, requestId: null }
  const storageKey = `${orgId}/demo/demo-course.zip`
  await storage.write(storageKey, createReadStream(zipPath), size)
  const uploadId = uuidv7()
  await db
    .insertInto('uploads')
    .values({
      id: uploadId,
      organization_id: orgId,
      user_id: demo.adminId,
      kind: 'course_package',
      mime: 'application/zip',
      declared_size: size,
      original_filename: 'demo-course.zip',
      storage_key: storageKey,
      status: 'ready',
      size_bytes: size,
    })
    .execute()
  // The course exists before its package, so the registration can name it; the import fills it in.
  const course = await insertCourse(db, source, {
    s3_path: storageKey,
    launch_file: 'index.html',
    title: 'Muster list and emergency signals',
  })
  await insertImport(db, orgId, { id: uuidv7(), uploadId, courseId: course.id, createdBy: demo.adminId, requestId: 'first-start' })
  await sql`insert into registrations (id, organization_id, assignment_id, course_id)
    select ${uuidv7()}::uuid, a.organization_id, a.id, ${course.id}::uuid
    from assignments a
    where a.organization_id = ${orgId}::uuid and a.user_id = ${demo.crewId}::uuid
      and (a.end_date is null or a.end_date >= current_date)
    order by a.start_date desc nulls last
    limit 1`.execute(db)
  await importHandler(deps)()
  return course.id
}
