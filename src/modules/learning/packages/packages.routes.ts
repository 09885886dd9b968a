import { v7 as uuidv7 } from 'uuid'
import { ADMIN } from '../../../lib/access.js'
import { conflict, IssueList, notFound } from '../../../lib/errors.js'
import { ErrorBody } from '../../../lib/schemas.js'
import { findUpload } from '../../platform/uploads/uploads.queries.js'
import { PACKAGE_KIND } from '../../platform/uploads/uploads.schemas.js'
import type { ModulePlugin } from '../../types.js'
import { findCourse } from '../courses/courses.queries.js'
import { IMPORT_QUEUE } from './packages.import.js'
import { findImport, findStructure, finishImport, insertImport, toCourseImport } from './packages.queries.js'
import { CourseImport, CourseImportCreate, CourseImportParams, CourseStructure, StructureParams } from './packages.schemas.js'

const tags = ['course packages']
const CANCELLED = { code: 'cancelled', message: 'The import was cancelled', path: '' }

export const courseImportsRoutes: ModulePlugin = (app, { db, jobs }) => {
  app.post(
    '/',
    {
      config: { roles: ADMIN },
      schema: {
        operationId: 'createCourseImport',
        summary: 'Import a course package',
        description:
          'Admins only. Starts importing a ready `course_package` upload (a cmi5 or SCORM zip, or a cmi5.xml alone) as a new course, or as the new package of `courseId`. Answers 202 with the running job; poll it until `complete` or `failed` (a failed import changes nothing and lists every broken rule in `errors`).',
        tags,
        body: CourseImportCreate,
        response: { 202: CourseImport },
      },
    },
    async (request, reply) => {
      const { actor, body } = request
      const [upload, course] = await Promise.all([
        findUpload(db, actor.orgId, body.uploadId),
        body.courseId ? findCourse(db, actor.orgId, body.courseId) : undefined,
      ])
      const issues = new IssueList()
      if (!upload || upload.kind !== PACKAGE_KIND || upload.status !== 'ready') {
        issues.add(['body', 'uploadId'], `Not a ready upload of kind ${PACKAGE_KIND}`)
      }
      if (body.courseId && !course) issues.add(['body', 'courseId'], 'Course not found')
      issues.throwIfAny()
      const row = await insertImport(db, actor.orgId, {
        id: uuidv7(),
        uploadId: body.uploadId,
        courseId: body.courseId ?? null,
        createdBy: actor.userId,
        requestId: actor.requestId,
      })
      await jobs.send(IMPORT_QUEUE)
      return reply.status(202).send(toCourseImport(row))
    },
  )

  app.get(
    '/:import_id',
    {
      config: { roles: ADMIN },
      schema: {
        operationId: 'getCourseImport',
        summary: 'A course import job',
        description: "Admins only. The job's status, the standard detected and, once failed, every rule the package breaks.",
        tags,
        params: CourseImportParams,
        response: { 200: CourseImport },
      },
    },
    async (request) => {
      const row = await findImport(db, request.actor.orgId, request.params.import_id)
      if (!row) throw notFound('Course import')
      return toCourseImport(row)
    },
  )

  app.delete(
    '/:import_id',
    {
      config: { roles: ADMIN },
      schema: {
        operationId: 'cancelCourseImport',
        summary: 'Cancel a course import',
        description:
          'Admins only. Cancels a running import: it answers 200 with the job, now `failed` with a `cancelled` error, and the work in progress stops (what it wrote is removed; nothing changes). An import that has already ended is a 409.',
        tags,
        params: CourseImportParams,
        response: { 200: CourseImport, 409: ErrorBody },
      },
    },
    async (request) => {
      const { actor } = request
      const row = await findImport(db, actor.orgId, request.params.import_id)
      if (!row) throw notFound('Course import')
      const source = { orgId: actor.orgId, actor: { userId: actor.userId, role: actor.role }, requestId: actor.requestId }
      const outcome = { status: 'failed' as const, standard: row.standard, courseId: row.course_id, errors: [CANCELLED] }
      const cancelled = await finishImport(db, source, row, outcome)
      if (!cancelled) throw conflict('The import has already ended')
      return toCourseImport(cancelled)
    },
  )
}

export const courseStructureRoutes: ModulePlugin = (app, { db }) => {
  app.get(
    '/',
    {
      schema: {
        operationId: 'getCourseStructure',
        summary: "A course's package structure",
        description:
          "The standard and the AUs (cmi5) or SCOs (SCORM) of the course's current package, in launch order. A course without a package (created as a pointer) is 404, like another organization's.",
        tags,
        params: StructureParams,
        response: { 200: CourseStructure },
      },
    },
    async (request) => {
      const structure = await findStructure(db, request.actor.orgId, request.params.course_id)
      if (!structure) throw notFound('Course structure')
      return structure
    },
  )
}
