import Type, { type Static } from 'typebox'
import { ExportFormat } from '../../../lib/csv.js'
import { DateString, IdParams, ListQuery, Nullable, Page, Uuid } from '../../../lib/schemas.js'
// Registers the `uuid-list` format of ship_id, shared with the assignments list.
import '../assignments/assignments.schemas.js'

// DECISIONS §10. The codes in the order the contract writes them: issues are listed in this order.
export const CODES = [
  'document_missing',
  'document_rejected',
  'document_expired',
  'document_expires_during_assignment',
  'document_expiring_soon',
  'document_unverified',
  'sea_service_insufficient',
  'course_overdue',
  'course_not_passed',
  'no_requirements',
  'overlapping_assignment',
] as const
export type Code = (typeof CODES)[number]
export const BLOCKERS: readonly Code[] = [
  'document_missing',
  'document_rejected',
  'document_expired',
  'document_expires_during_assignment',
  'sea_service_insufficient',
  'course_overdue',
]

const CodeSchema = Type.Enum(CODES, { title: 'ReadinessCode' })
const AsOf = DateString
export const AsOfParameter = Type.Optional(
  Type.String({ format: 'date', examples: ['2026-06-15'], description: 'The date to judge on (default: today, UTC)' }),
)

export const Issue = Type.Object(
  {
    code: CodeSchema,
    requirement: Nullable(
      Type.String({
        description:
          'The document or certificate type; "sea_service" for sea_service_insufficient; for course issues, the course id; for no_requirements, the role as written; null for overlapping_assignment',
      }),
    ),
    targetType: Type.Enum(['requirement', 'identity_document', 'certificate', 'registration', 'assignment'], {
      description: '"requirement" when no document of the type exists; "assignment" for no_requirements (this one) and overlapping_assignment (the other)',
    }),
    targetId: Nullable(Uuid),
    message: Type.String({ description: 'A sentence for people' }),
  },
  { title: 'ReadinessIssue' },
)
export type Issue = Static<typeof Issue>

export const Readiness = Type.Object(
  {
    assignmentId: Uuid,
    userId: Uuid,
    shipId: Uuid,
    role: Type.String(),
    asOf: AsOf,
    through: Type.String({ format: 'date', description: "The assignment's endDate, or asOf + openEndedHorizonDays when it has none" }),
    ready: Type.Boolean({ description: 'No blockers' }),
    blockers: Type.Array(Issue),
    warnings: Type.Array(Issue),
  },
  {
    title: 'AssignmentReadiness',
    examples: [
      {
        assignmentId: '01935c1e-7f3a-7c2e-9a4b-5d6e7f809a1b',
        userId: '01935c1e-6a10-7d2e-8b4b-1d2e3f405a6b',
        shipId: '01935c1e-5b20-7e2e-9c4b-2d3e4f506b7c',
        role: 'Chief Engineer',
        asOf: '2026-06-15',
        through: '2026-12-15',
        ready: false,
        blockers: [
          {
            code: 'document_expires_during_assignment',
            requirement: 'passport',
            targetType: 'identity_document',
            targetId: '01935c1e-4c30-7f2e-8d4b-3e4f50617c8d',
            message: 'Passport expires on 2027-03-01: it must be valid until 2027-06-13.',
          },
        ],
        warnings: [],
      },
    ],
  },
)
export type Readiness = Static<typeof Readiness>

export const AsOfQuery = Type.Object({ as_of: AsOfParameter })
export type AsOfQuery = Static<typeof AsOfQuery>

export const AssignmentParams = IdParams('assignment_id')
export const ShipParams = IdParams('ship_id')

const { limit, cursor, include_count } = ListQuery.properties

export const FleetQuery = Type.Object({
  limit,
  cursor,
  include_count,
  as_of: AsOfParameter,
  ship_id: Type.Optional(Type.String({ format: 'uuid-list', description: 'One ship id, or several separated by commas (any of them)' })),
  user_id: Type.Optional(Uuid),
  ready: Type.Optional(Type.Boolean()),
  code: Type.Optional(Type.Enum(CODES, { description: 'Only assignments having this blocker or warning' })),
  is_active: Type.Boolean({ default: true, description: 'Active on as_of: endDate null or on/after as_of' }),
  format: ExportFormat,
})
export type FleetQuery = Static<typeof FleetQuery>

export const FleetItem = Type.Object(
  {
    assignmentId: Uuid,
    userId: Uuid,
    userName: Type.String(),
    shipId: Uuid,
    shipName: Type.String(),
    role: Type.String(),
    startDate: Nullable(DateString),
    endDate: Nullable(DateString),
    ready: Type.Boolean(),
    blockerCount: Type.Integer(),
    warningCount: Type.Integer(),
    codes: Type.Array(CodeSchema, { description: 'The distinct codes of its blockers and warnings, sorted alphabetically' }),
  },
  {
    title: 'FleetReadinessItem',
    examples: [
      {
        assignmentId: '01935c1e-7f3a-7c2e-9a4b-5d6e7f809a1b',
        userId: '01935c1e-6a10-7d2e-8b4b-1d2e3f405a6b',
        userName: 'Maria Santos',
        shipId: '01935c1e-5b20-7e2e-9c4b-2d3e4f506b7c',
        shipName: 'MV Northern Star',
        role: 'Chief Engineer',
        startDate: '2026-07-01',
        endDate: '2026-12-15',
        ready: false,
        blockerCount: 1,
        warningCount: 2,
        codes: ['course_not_passed', 'document_expires_during_assignment', 'document_unverified'],
      },
    ],
  },
)
export type FleetItem = Static<typeof FleetItem>
export const FleetPage = Page(FleetItem)

export const ShipReadiness = Type.Object(
  {
    shipId: Uuid,
    asOf: AsOf,
    assignments: Type.Integer({ description: "The ship's assignments active on asOf" }),
    ready: Type.Integer(),
    notReady: Type.Integer(),
    byCode: Type.Record(Type.String(), Type.Integer(), {
      description: 'Per code, how many assignments have it; only codes with at least one',
    }),
  },
  {
    title: 'ShipReadiness',
    examples: [
      {
        shipId: '01935c1e-5b20-7e2e-9c4b-2d3e4f506b7c',
        asOf: '2026-06-15',
        assignments: 24,
        ready: 19,
        notReady: 5,
        byCode: { document_expired: 2, course_overdue: 3, document_unverified: 7 },
      },
    ],
  },
)
export type ShipReadiness = Static<typeof ShipReadiness>
