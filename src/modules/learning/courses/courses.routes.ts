import { type Actor, ADMIN } from '../../../lib/access.js'
import { columnsOf } from '../../../lib/columns.js'
import { forbidden, notFound } from '../../../lib/errors.js'
import { ErrorBody, NoContent } from '../../../lib/schemas.js'
import type { ModulePlugin } from '../../types.js'
import { certificateColumns, deleteCourse, findCourse, insertCourse, listCourses, toCourse, updateCourse } from './courses.queries.js'
import { COURSE_COLUMNS, Course, CourseCreate, CourseListQuery, CoursePage, CourseParams, CourseUpdate } from './courses.schemas.js'

const tags = ['courses']

/** A course belongs to the caller's organization: naming another one is refused, never a move. */
function assertOwnOrganization(actor: Actor, organizationId: string | undefined): void {
  if (organizationId !== undefined && organizationId.toLowerCase() !== actor.orgId) {
    throw forbidden('organization_id must be your own organization')
  }
}

export const coursesRoutes: ModulePlugin = (app, { db }) => {
  app.post(
    '/',
    {
      config: { roles: ADMIN },
      schema: {
        operationId: 'createCourse',
        summary: 'Create a course',
        description:
          'Admins only. `organization_id` must be your own organization (403 otherwise); the body is snake_case as the contract writes it. A `certificate` template makes every pass issue or renew that certificate (DECISIONS §14).',
        tags,
        body: CourseCreate,
        response: { 201: Course },
      },
    },
    async (request, reply) => {
      const { organization_id, s3_path, launch_file, title, description = null, certificate = null } = request.body
      assertOwnOrganization(request.actor, organization_id)
      const course = { s3_path, launch_file, title, description, ...certificateColumns(certificate) }
      return reply.status(201).send(await insertCourse(db, request.actor, course))
    },
  )

  app.get(
    '/',
    {
      schema: {
        operationId: 'listCourses',
        summary: 'List courses',
        description: "The organization's courses, cursor-paged; `search` matches the title.",
        tags,
        querystring: CourseListQuery,
        response: { 200: CoursePage },
      },
    },
    async (request) => listCourses(db, request.actor.orgId, request.query),
  )

  app.get(
    '/:course_id',
    {
      schema: {
        operationId: 'getCourse',
        summary: 'Get a course',
        description: "Another organization's course is 404 like a missing one.",
        tags,
        params: CourseParams,
        response: { 200: Course },
      },
    },
    async (request) => {
      const row = await findCourse(db, request.actor.orgId, request.params.course_id)
      if (!row) throw notFound('Course')
      return toCourse(row)
    },
  )

  app.patch(
    '/:course_id',
    {
      config: { roles: ADMIN },
      schema: {
        operationId: 'updateCourse',
        summary: 'Update a course',
        description: 'Admins only. Only the fields sent change; `certificate: null` removes the template (certificates issued stay).',
        tags,
        params: CourseParams,
        body: CourseUpdate,
        response: { 200: Course },
      },
    },
    async (request) => {
      const { actor, params, body } = request
      assertOwnOrganization(actor, body.organization_id)
      const changes = {
        ...columnsOf(COURSE_COLUMNS, body),
        ...(body.certificate === undefined ? {} : certificateColumns(body.certificate)),
      }
      const course = await updateCourse(db, actor, params.course_id, changes)
      if (!course) throw notFound('Course')
      return course
    },
  )

  app.delete(
    '/:course_id',
    {
      config: { roles: ADMIN },
      schema: {
        operationId: 'deleteCourse',
        description: 'Admins only. Registrations without attempts go with the course; once any has attempts the answer is 409.',
        tags,
        summary: 'Delete a course (409 once any registration has attempts)',
        params: CourseParams,
        response: { 204: NoContent, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      if (!(await deleteCourse(db, request.actor, request.params.course_id))) throw notFound('Course')
      return reply.status(204).send(null)
    },
  )
}
