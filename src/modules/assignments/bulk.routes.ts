import { ADMIN } from '../../lib/access.js'
import type { ModulePlugin } from '../types.js'
import {
  BulkAssignCourses,
  BulkAssignCoursesResult,
  BulkCreate,
  BulkCreateResult,
  BulkRemoveCourses,
  BulkRemoveCoursesResult,
  BulkUpdate,
  BulkUpdateResult,
} from './bulk.schemas.js'
import { bulkAssignCourses, bulkCreate, bulkRemove, bulkUpdate } from './bulk.service.js'

const tags = ['assignments']
const config = { roles: ADMIN }

/** Bulk operations: admin only, 200, per-item failures in the body (DECISIONS §4). */
export const bulkRoutes: ModulePlugin = (app, { db }) => {
  app.post(
    '/update',
    { config, schema: { tags, summary: 'Update assignments in bulk', body: BulkUpdate, response: { 200: BulkUpdateResult } } },
    async (request) => bulkUpdate(db, request.actor.orgId, request.body),
  )
  app.post(
    '/create',
    { config, schema: { tags, summary: 'Assign users to a ship in bulk', body: BulkCreate, response: { 200: BulkCreateResult } } },
    async (request) => bulkCreate(db, request.actor.orgId, request.body),
  )
  app.post(
    '/courses',
    {
      config,
      schema: {
        tags,
        summary: 'Assign courses to assignments in bulk',
        body: BulkAssignCourses,
        response: { 200: BulkAssignCoursesResult },
      },
    },
    async (request) => bulkAssignCourses(db, request.actor.orgId, request.body),
  )
  app.post(
    '/remove-courses',
    {
      config,
      schema: {
        tags,
        summary: 'Remove courses from assignments in bulk',
        body: BulkRemoveCourses,
        response: { 200: BulkRemoveCoursesResult },
      },
    },
    async (request) => bulkRemove(db, request.actor.orgId, request.body),
  )
}
