import { MANAGERS, rowOwner } from '../../../lib/access.js'
import { listOrCsv } from '../../../lib/csv.js'
import { notFound } from '../../../lib/errors.js'
import { ErrorBody } from '../../../lib/schemas.js'
import type { ModulePlugin } from '../../types.js'
import { findAssignment, listAssignments, toAssignment } from './assignments.queries.js'
import {
  Assignment,
  AssignmentCreate,
  AssignmentListQuery,
  AssignmentPage,
  AssignmentParams,
  AssignmentUpdate,
} from './assignments.schemas.js'
import { createAssignment, patchAssignment } from './assignments.service.js'

const tags = ['assignments']

/** Create, list and get one: served under two prefixes (DECISIONS §8). */
export const assignmentsRoutes: ModulePlugin = (app, { db }) => {
  app.post(
    '/',
    {
      config: { roles: MANAGERS },
      schema: {
        operationId: 'createAssignment',
        description: 'Admins and office admins only. A user has at most one active assignment per ship (409).',
        tags,
        summary: 'Assign a user to a ship',
        body: AssignmentCreate,
        response: { 201: Assignment, 409: ErrorBody },
      },
    },
    async (request, reply) => reply.status(201).send(toAssignment(await createAssignment(db, request.actor, request.body))),
  )

  app.get(
    '/',
    {
      schema: {
        operationId: 'listAssignments',
        description: 'Filtered by the query parameters, cursor-paged, or every match as CSV. Crew and office employees see their own.',
        tags,
        summary: 'List assignments (crew and office employees: their own)',
        querystring: AssignmentListQuery,
        response: { 200: AssignmentPage },
      },
    },
    async (request, reply) =>
      listOrCsv(request, reply, {
        name: 'assignments',
        item: Assignment,
        query: request.query,
        list: (query) => listAssignments(db, request.actor.orgId, query, rowOwner(request.actor, MANAGERS)),
      }),
  )

  app.get(
    '/:assignment_id',
    {
      schema: {
        operationId: 'getAssignment',
        description: 'Crew and office employees reach only their own.',
        tags,
        summary: 'One assignment',
        params: AssignmentParams,
        response: { 200: Assignment },
      },
    },
    async (request) => {
      const row = await findAssignment(db, request.actor.orgId, request.params.assignment_id, rowOwner(request.actor, MANAGERS))
      if (!row) throw notFound('Assignment')
      return toAssignment(row)
    },
  )
}

/** The single update (spec endpoint 7) has no namespaced form. */
export const assignmentUpdateRoutes: ModulePlugin = (app, { db }) => {
  app.patch(
    '/:assignment_id',
    {
      config: { roles: MANAGERS },
      schema: {
        operationId: 'updateAssignment',
        description:
          'Admins and office admins only. Only the fields sent change; the end date may not precede the start date, and a second active assignment on the ship is a 409.',
        tags,
        summary: 'Update an assignment',
        params: AssignmentParams,
        body: AssignmentUpdate,
        response: { 200: Assignment, 409: ErrorBody },
      },
    },
    async (request) => toAssignment(await patchAssignment(db, request.actor, request.params.assignment_id, request.body)),
  )
}
