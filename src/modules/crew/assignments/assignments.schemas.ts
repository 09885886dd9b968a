import Type, { type Static } from 'typebox'
import { ExportFormat } from '../../../lib/csv.js'
import { DateString, IdParams, ListQuery, Nullable, Page, Uuid } from '../../../lib/schemas.js'
import { isUuid, registerFormat } from '../../../lib/validation.js'

/** `ship_id` takes one id or several separated by commas. */
export const splitIds = (value: string) => value.split(',').map((part) => part.trim())
registerFormat('uuid-list', (value) => splitIds(value).every(isUuid), 'Input should be a UUID or comma-separated UUIDs')

export const AssignmentRole = Type.String({ minLength: 1, maxLength: 100, examples: ['Chief Engineer'] })

const AssignmentFields = {
  id: Uuid,
  userId: Uuid,
  userName: Type.String(),
  userEmail: Type.String(),
  shipId: Uuid,
  shipName: Type.String(),
  shipImoNumber: Type.String(),
  role: Type.String(),
  startDate: Nullable(DateString),
  dueDate: Nullable(DateString),
  endDate: Nullable(DateString),
  isActive: Type.Boolean({ description: 'True until the sign-off date has passed: endDate is null or today (UTC) or later' }),
}

/** An assignment as the API shows it, for the OpenAPI examples of every operation that answers one. */
export const ASSIGNMENT_EXAMPLE = {
  id: '0190a000-0000-7000-8000-000000000a05',
  userId: '0190a000-0000-7000-8000-000000000a01',
  userName: 'Anna Berg',
  userEmail: 'anna.berg@example.com',
  shipId: '0190a000-0000-7000-8000-000000000a02',
  shipName: 'Nordic Star',
  shipImoNumber: '9074729',
  role: 'Chief Engineer',
  startDate: '2026-06-15',
  dueDate: '2026-09-15',
  endDate: null,
  isActive: true,
}

/** The single shape (AssignmentDetailDTO). */
export const Assignment = Type.Object(AssignmentFields, {
  title: 'Assignment',
  examples: [ASSIGNMENT_EXAMPLE],
})
export type Assignment = Static<typeof Assignment>

/** The dates of an assignment as sent in a request: absent, a date, or (where allowed) null. */
export interface AssignmentDates {
  startDate?: string | null
  dueDate?: string | null
  endDate?: string | null
}

const OptionalDate = Type.Optional(Nullable(DateString))

export const AssignmentCreate = Type.Object(
  {
    userId: Uuid,
    shipId: Uuid,
    role: AssignmentRole,
    startDate: OptionalDate,
    dueDate: OptionalDate,
    endDate: OptionalDate,
  },
  {
    title: 'AssignmentCreate',
    examples: [
      {
        userId: '0190a000-0000-7000-8000-000000000a01',
        shipId: '0190a000-0000-7000-8000-000000000a02',
        role: 'Chief Engineer',
        startDate: '2026-06-15',
        dueDate: '2026-09-15',
      },
    ],
  },
)
export type AssignmentCreate = Static<typeof AssignmentCreate>

/** The wire fields a request sets, and their columns (src/lib/columns.ts). */
export const ASSIGNMENT_COLUMNS = { role: 'role', startDate: 'start_date', dueDate: 'due_date', endDate: 'end_date' } as const
/** startDate ≤ dueDate and startDate ≤ endDate when both are set (DECISIONS §4). */
export const ASSIGNMENT_DATE_ORDER = [
  ['startDate', 'dueDate'],
  ['startDate', 'endDate'],
] as const

export const AssignmentUpdate = Type.Object(
  {
    role: Type.Optional(AssignmentRole),
    startDate: OptionalDate,
    dueDate: OptionalDate,
    endDate: OptionalDate,
  },
  { title: 'AssignmentUpdate', examples: [{ endDate: '2026-09-30' }] },
)
export type AssignmentUpdate = Static<typeof AssignmentUpdate>

export const AssignmentListQuery = Type.Object({
  ...ListQuery.properties,
  format: ExportFormat,
  ship_id: Type.Optional(Type.String({ format: 'uuid-list', description: 'One ship id, or several separated by commas (any of them)' })),
  user_id: Type.Optional(Uuid),
  is_active: Type.Optional(Type.Boolean()),
})
export type AssignmentListQuery = Static<typeof AssignmentListQuery>

export const AssignmentPage = Page(Assignment)
export const AssignmentParams = IdParams('assignment_id')
