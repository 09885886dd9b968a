import Type, { type Static } from 'typebox'
import { REGISTRATION_STATUSES } from '../../../db/schema.js'
import { ExportFormat } from '../../../lib/csv.js'
import { DateTime, IdParams, ListQuery, Nullable, Page, Uuid } from '../../../lib/schemas.js'

// The Registration object is snake_case on the wire (DECISIONS §1).
export const RegistrationStatus = Type.Enum(REGISTRATION_STATUSES)

export const Registration = Type.Object(
  {
    id: Uuid,
    assignment_id: Uuid,
    course_id: Uuid,
    status: RegistrationStatus,
    created_at: DateTime,
    updated_at: DateTime,
    completed_at: Nullable(DateTime),
    score_percent: Nullable(Type.Integer()),
    time_spent_seconds: Type.Integer(),
    attempt_count: Type.Integer(),
    user_name: Type.Optional(Type.String({ description: 'Only with expand=true' })),
    course_title: Type.Optional(Type.String({ description: 'Only with expand=true' })),
    ship_name: Type.Optional(Type.String({ description: 'Only with expand=true' })),
  },
  {
    title: 'Registration',
    examples: [
      {
        id: '0190a000-0000-7000-8000-000000000a06',
        assignment_id: '0190a000-0000-7000-8000-000000000a05',
        course_id: '0190a000-0000-7000-8000-000000000a03',
        status: 'passed',
        created_at: '2026-06-15T08:30:00.000Z',
        updated_at: '2026-06-15T08:30:00.000Z',
        completed_at: '2026-06-15T08:30:00.000Z',
        score_percent: 86,
        time_spent_seconds: 1260,
        attempt_count: 1,
      },
    ],
  },
)
export type Registration = Static<typeof Registration>

/** The fields `expand=true` adds. */
export const EXPANDED = ['user_name', 'course_title', 'ship_name']
const Expand = Type.Boolean({ default: false, description: 'Adds user_name, course_title and ship_name' })

export const RegistrationListQuery = Type.Object({
  ...ListQuery.properties,
  assignment_id: Type.Optional(Uuid),
  course_id: Type.Optional(Uuid),
  status: Type.Optional(RegistrationStatus),
  expand: Expand,
  format: ExportFormat,
})
export type RegistrationListQuery = Static<typeof RegistrationListQuery>

export const RegistrationQuery = Type.Object({ expand: Expand })
export const RegistrationPage = Page(Registration)
export const RegistrationParams = IdParams('registration_id')

// The int4 column's range: totals saturate there rather than fail (see attempts.queries.ts).
export const MAX_SECONDS = 2_147_483_647

export const AttemptCreate = Type.Object(
  {
    attemptId: Type.String({ format: 'uuid', description: 'Chosen by the client; a replay of the same id is recorded once' }),
    passed: Type.Boolean(),
    score_percent: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 100 }))),
    time_spent_seconds: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: MAX_SECONDS }))),
    finished_at: Type.Optional(Nullable(DateTime)),
  },
  {
    title: 'AttemptCreate',
    examples: [
      {
        attemptId: '0190a000-0000-7000-8000-000000000a08',
        passed: true,
        score_percent: 86,
        time_spent_seconds: 1260,
        finished_at: '2026-06-15T08:30:00.000Z',
      },
    ],
  },
)
export type AttemptCreate = Static<typeof AttemptCreate>
