import pLimit from 'p-limit'
import { ADMIN } from '../../../lib/access.js'
import { ErrorBody } from '../../../lib/schemas.js'
import type { ModulePlugin } from '../../types.js'
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

/**
 * Bulk writes running at once per process; the rest wait their turn in order. A 1,000-id write holds its
 * connection for a second or more, and those of one organization queue on its sea-service lock: 32 at once
 * held every pooled connection while they queued, so every other request waited past the pool's limit (503)
 * and the bulk writes' p99 was 6 × their p50 (docs/performance.md).
 */
export const BULK_AT_ONCE = 2

/** One turn for the process: every app and every path the routes are served at (their aliases) shares it. */
const inTurn = pLimit(BULK_AT_ONCE)

/** Bulk operations: admin only, 200, per-item failures in the body (DECISIONS §4). */
export const bulkRoutes: ModulePlugin = (app, { db, metrics }) => {
  metrics.bulkOperationsFrom(() => ({ running: inTurn.activeCount, waiting: inTurn.pendingCount }))
  app.post(
    '/update',
    {
      config,
      schema: {
        operationId: 'bulkUpdateAssignments',
        description:
          'Admins only. One change applied to every listed assignment; each one it cannot apply is left unchanged and reported with why (`failedAssignmentIds`, `errors`). A concurrent change that gives a user a second active assignment on a ship is a 409.',
        tags,
        summary: 'Update assignments in bulk',
        body: BulkUpdate,
        response: { 200: BulkUpdateResult, 409: ErrorBody },
      },
    },
    (request) => inTurn(() => bulkUpdate(db, request.actor, request.body)),
  )
  app.post(
    '/create',
    {
      config,
      schema: {
        operationId: 'bulkCreateAssignments',
        description:
          'Admins only. One assignment per listed user on the ship; users who already have an active one there are skipped (`skippedUserIds`). A concurrent change that gives one of them an active assignment on the ship meanwhile is a 409.',
        tags,
        summary: 'Assign users to a ship in bulk',
        body: BulkCreate,
        response: { 200: BulkCreateResult, 409: ErrorBody },
      },
    },
    (request) => inTurn(() => bulkCreate(db, request.actor, request.body)),
  )
  app.post(
    '/courses',
    {
      config,
      schema: {
        operationId: 'bulkAssignCourses',
        description:
          'Admins only. Adds the courses (listed, or those of a curriculum) to every listed assignment that lacks them, each with a registration; assignments not found are reported in `failedAssignmentIds`.',
        tags,
        summary: 'Assign courses to assignments in bulk',
        body: BulkAssignCourses,
        response: { 200: BulkAssignCoursesResult },
      },
    },
    (request) => inTurn(() => bulkAssignCourses(db, request.actor, request.body)),
  )
  app.post(
    '/remove-courses',
    {
      config,
      schema: {
        operationId: 'bulkRemoveCourses',
        description:
          'Admins only. Removes the courses from every listed assignment that has them; a registration with attempts is kept as history; assignments not found are reported in `failedAssignmentIds`.',
        tags,
        summary: 'Remove courses from assignments in bulk',
        body: BulkRemoveCourses,
        response: { 200: BulkRemoveCoursesResult },
      },
    },
    (request) => inTurn(() => bulkRemove(db, request.actor, request.body)),
  )
}
