import Type, { type Static } from 'typebox'
import { DateString, Nullable, Uuid } from '../../../lib/schemas.js'
import { ASSIGNMENT_EXAMPLE, Assignment, AssignmentRole } from './assignments.schemas.js'

/** 1–1000 distinct ids: a repeated id is a 422 at the list itself. */
const IdList = (description: string) => Type.Array(Uuid, { minItems: 1, maxItems: 1000, uniqueItems: true, description })
const AssignmentIds = IdList('Assignments to change (1–1000 distinct ids)')
const OptionalDate = Type.Optional(DateString)

/** An item of a bulk update result: the single shape without dueDate. */
export const BulkAssignment = Type.Omit(Assignment, ['dueDate'], { title: 'BulkAssignment' })
export type BulkAssignment = Static<typeof BulkAssignment>
const { dueDate: _, ...bulkExample } = ASSIGNMENT_EXAMPLE

const CLEARABLE = ['startDate', 'dueDate', 'endDate'] as const
export const BulkUpdate = Type.Object(
  {
    assignmentIds: AssignmentIds,
    role: Type.Optional(AssignmentRole),
    startDate: OptionalDate,
    dueDate: OptionalDate,
    endDate: OptionalDate,
    clearFields: Type.Optional(Type.Array(Type.Enum(CLEARABLE), { uniqueItems: true, description: 'Dates to clear (set to null)' })),
  },
  {
    title: 'BulkUpdate',
    examples: [{ assignmentIds: ['0190a000-0000-7000-8000-000000000a05'], endDate: '2026-09-30', clearFields: ['dueDate'] }],
  },
)
export type BulkUpdate = Static<typeof BulkUpdate>

export const BulkUpdateResult = Type.Object(
  {
    updatedCount: Type.Integer(),
    assignments: Type.Array(BulkAssignment),
    failedAssignmentIds: Type.Array(Uuid),
    errors: Type.Array(Type.String({ examples: ['0190a000-0000-7000-8000-000000000001: startDate after endDate'] })),
  },
  {
    title: 'BulkUpdateResult',
    examples: [
      {
        updatedCount: 1,
        assignments: [bulkExample],
        failedAssignmentIds: [],
        errors: [],
      },
    ],
  },
)
export type BulkUpdateResult = Static<typeof BulkUpdateResult>

export const BulkCreate = Type.Object(
  {
    userIds: IdList('Users to assign (1–1000 distinct ids)'),
    shipId: Uuid,
    role: AssignmentRole,
    startDate: Type.Optional(Nullable(DateString)),
    dueDate: Type.Optional(Nullable(DateString)),
    endDate: Type.Optional(Nullable(DateString)),
  },
  {
    title: 'BulkCreate',
    examples: [
      {
        userIds: ['0190a000-0000-7000-8000-000000000a01'],
        shipId: '0190a000-0000-7000-8000-000000000a02',
        role: 'Chief Engineer',
        startDate: '2026-06-15',
      },
    ],
  },
)
export type BulkCreate = Static<typeof BulkCreate>

export const BulkCreateResult = Type.Object(
  {
    createdCount: Type.Integer(),
    assignments: Type.Array(Assignment),
    skippedUserIds: Type.Array(Uuid, { description: 'Users who already have an active assignment on that ship' }),
  },
  {
    title: 'BulkCreateResult',
    examples: [
      {
        createdCount: 1,
        assignments: [ASSIGNMENT_EXAMPLE],
        skippedUserIds: [],
      },
    ],
  },
)
export type BulkCreateResult = Static<typeof BulkCreateResult>

export const BulkAssignCourses = Type.Object(
  {
    assignmentIds: AssignmentIds,
    courseIds: Type.Optional(Type.Array(Uuid, { maxItems: 1000, uniqueItems: true })),
    curriculumId: Type.Optional(Uuid),
  },
  {
    title: 'BulkAssignCourses',
    examples: [{ assignmentIds: ['0190a000-0000-7000-8000-000000000a05'], courseIds: ['0190a000-0000-7000-8000-000000000a03'] }],
  },
)
export type BulkAssignCourses = Static<typeof BulkAssignCourses>

export const BulkAssignCoursesResult = Type.Object(
  {
    updatedCount: Type.Integer({ description: 'Assignments that gained at least one course' }),
    totalCoursesAssigned: Type.Integer({ description: 'New (assignment, course) pairs' }),
    failedAssignmentIds: Type.Array(Uuid),
  },
  { title: 'BulkAssignCoursesResult', examples: [{ updatedCount: 1, totalCoursesAssigned: 1, failedAssignmentIds: [] }] },
)
export type BulkAssignCoursesResult = Static<typeof BulkAssignCoursesResult>

export const BulkRemoveCourses = Type.Object(
  {
    assignmentIds: AssignmentIds,
    courseIds: IdList('Courses to remove (1–1000 distinct ids)'),
  },
  {
    title: 'BulkRemoveCourses',
    examples: [{ assignmentIds: ['0190a000-0000-7000-8000-000000000a05'], courseIds: ['0190a000-0000-7000-8000-000000000a03'] }],
  },
)
export type BulkRemoveCourses = Static<typeof BulkRemoveCourses>

export const BulkRemoveCoursesResult = Type.Object(
  {
    updatedCount: Type.Integer({ description: 'Assignments that lost at least one course' }),
    totalCoursesRemoved: Type.Integer({ description: '(assignment, course) pairs removed' }),
    failedAssignmentIds: Type.Array(Uuid),
  },
  { title: 'BulkRemoveCoursesResult', examples: [{ updatedCount: 1, totalCoursesRemoved: 1, failedAssignmentIds: [] }] },
)
export type BulkRemoveCoursesResult = Static<typeof BulkRemoveCoursesResult>
