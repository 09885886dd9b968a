import { ADMIN } from '../../lib/access.js'
import type { Module } from '../types.js'
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
const PREFIXES = ['/api/v1/learn/assignments/bulk', '/api/v1/assignments/bulk']
const config = { roles: ADMIN }

/** Bulk operations: admin only, 200, per-item failures in the body (DECISIONS §4). */
export const bulkRoutes: Module = (app, { db }) => {
  for (const prefix of PREFIXES) {
    app.post(
      `${prefix}/update`,
      { config, schema: { tags, summary: 'Update assignments in bulk', body: BulkUpdate, response: { 200: BulkUpdateResult } } },
      async (request) => bulkUpdate(db, request.actor.orgId, request.body),
    )
    app.post(
      `${prefix}/create`,
      { config, schema: { tags, summary: 'Assign users to a ship in bulk', body: BulkCreate, response: { 200: BulkCreateResult } } },
      async (request) => bulkCreate(db, request.actor.orgId, request.body),
    )
    app.post(
      `${prefix}/courses`,
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
      `${prefix}/remove-courses`,
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
}
