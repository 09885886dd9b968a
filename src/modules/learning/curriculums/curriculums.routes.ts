import { ADMIN } from '../../../lib/access.js'
import { notFound } from '../../../lib/errors.js'
import { NoContent } from '../../../lib/schemas.js'
import type { ModulePlugin } from '../../types.js'
import { addCourse, removeCourse } from './curriculum-courses.queries.js'
import {
  assertReachable,
  deleteCurriculum,
  findCurriculum,
  insertCurriculum,
  listCurriculums,
  updateCurriculum,
} from './curriculums.queries.js'
import {
  AddCourseQuery,
  Curriculum,
  CurriculumCourseParams,
  CurriculumCreate,
  CurriculumListQuery,
  CurriculumPage,
  CurriculumParams,
  CurriculumUpdate,
} from './curriculums.schemas.js'

const tags = ['curriculums']

const orNotFound = (curriculum: Curriculum | undefined): Curriculum => {
  if (!curriculum) throw notFound('Curriculum')
  return curriculum
}

/** Omitted fields stay as they are; a null description is the empty one. */
function toChanges(body: CurriculumUpdate): { title?: string; description?: string } {
  const changes: { title?: string; description?: string } = {}
  if (body.title !== undefined) changes.title = body.title
  if (body.description !== undefined) changes.description = body.description ?? ''
  return changes
}

export const curriculumsRoutes: ModulePlugin = (app, { db }) => {
  app.post(
    '/',
    {
      config: { roles: ADMIN },
      schema: {
        operationId: 'createCurriculum',
        summary: 'Create a curriculum',
        description: 'Admins only. An ordered set of courses.',
        tags,
        body: CurriculumCreate,
        response: { 201: Curriculum },
      },
    },
    async (request, reply) => {
      const { title, description } = request.body
      return reply.status(201).send(await insertCurriculum(db, request.actor, { title, description: description ?? '' }))
    },
  )

  app.get(
    '/',
    {
      schema: {
        operationId: 'listCurriculums',
        summary: 'List curriculums',
        description: 'Cursor-paged; `search` matches the title.',
        tags,
        querystring: CurriculumListQuery,
        response: { 200: CurriculumPage },
      },
    },
    async (request) => listCurriculums(db, request.actor.orgId, request.query),
  )

  app.get(
    '/:curriculum_id',
    {
      schema: {
        operationId: 'getCurriculum',
        summary: 'Get a curriculum',
        description: 'With its courses.',
        tags,
        params: CurriculumParams,
        response: { 200: Curriculum },
      },
    },
    async (request) => orNotFound(await findCurriculum(db, request.actor.orgId, request.params.curriculum_id)),
  )

  app.patch(
    '/:curriculum_id',
    {
      config: { roles: ADMIN },
      schema: {
        operationId: 'updateCurriculum',
        summary: 'Update a curriculum',
        description: 'Admins only. Only the fields sent change.',
        tags,
        params: CurriculumParams,
        body: CurriculumUpdate,
        response: { 200: Curriculum },
      },
    },
    async ({ actor, params, body }) => orNotFound(await updateCurriculum(db, actor, params.curriculum_id, toChanges(body))),
  )

  app.delete(
    '/:curriculum_id',
    {
      config: { roles: ADMIN },
      schema: {
        operationId: 'deleteCurriculum',
        summary: 'Delete a curriculum',
        description: 'Admins only. The courses stay.',
        tags,
        params: CurriculumParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { actor, params } = request
      if (!(await deleteCurriculum(db, actor, params.curriculum_id))) throw notFound('Curriculum')
      return reply.status(204).send(null)
    },
  )

  app.post(
    '/:curriculum_id/courses',
    {
      config: { roles: ADMIN },
      schema: {
        operationId: 'addCurriculumCourse',
        description: 'Admins only. Adding a course that is already there changes nothing.',
        tags,
        summary: 'Add a course (idempotent)',
        params: CurriculumParams,
        querystring: AddCourseQuery,
        response: { 200: Curriculum },
      },
    },
    async ({ actor, params, query }) => {
      await assertReachable(db, actor.orgId, params.curriculum_id, query.course_id)
      return addCourse(db, actor, params.curriculum_id, query.course_id)
    },
  )

  app.delete(
    '/:curriculum_id/courses/:course_id',
    {
      config: { roles: ADMIN },
      schema: {
        operationId: 'removeCurriculumCourse',
        description: 'Admins only. Removing a course that is not there changes nothing.',
        tags,
        summary: 'Remove a course (idempotent)',
        params: CurriculumCourseParams,
        response: { 200: Curriculum },
      },
    },
    async ({ actor, params }) => {
      await assertReachable(db, actor.orgId, params.curriculum_id, params.course_id)
      return removeCourse(db, actor, params.curriculum_id, params.course_id)
    },
  )
}
