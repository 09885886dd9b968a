import Type, { type Static } from 'typebox'
import { EXPERIENCE_SOURCES } from '../../../db/schema.js'
import { DateString, DateTime, IdParams, Nullable, Uuid } from '../../../lib/schemas.js'
import { Notes, Text300, Verification } from '../reviewed-records/reviewed-records.schemas.js'

export const Experience = Type.Object(
  {
    id: Uuid,
    companyName: Type.String(),
    position: Type.String(),
    shipType: Nullable(Type.String()),
    startDate: DateString,
    endDate: Nullable(DateString),
    notes: Nullable(Type.String()),
    source: Type.Enum(EXPERIENCE_SOURCES, {
      description: '"assignment": made from an ended assignment (DECISIONS §14); "manual": typed by people',
    }),
    assignmentId: Nullable(Uuid),
    verification: Nullable(Verification),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  {
    examples: [
      {
        id: '0190a000-0000-7000-8000-000000000a0b',
        companyName: 'Nordic Shipping',
        position: 'Second Engineer',
        shipType: 'Bulk carrier',
        startDate: '2022-01-10',
        endDate: '2024-12-20',
        notes: null,
        source: 'manual',
        assignmentId: null,
        verification: {
          targetType: 'experience',
          targetId: '0190a000-0000-7000-8000-000000000a0b',
          status: 'not_submitted',
          rejectionReason: null,
          reviewedAt: null,
        },
        createdAt: '2026-06-15T08:30:00.000Z',
        updatedAt: '2026-06-15T08:30:00.000Z',
      },
    ],
    title: 'Experience',
  },
)
export type Experience = Static<typeof Experience>

const ExperienceFields = {
  companyName: Text300,
  position: Text300,
  shipType: Type.Optional(Nullable(Text300)),
  startDate: DateString,
  endDate: Type.Optional(Nullable(Type.String({ format: 'date', description: 'null: the current position' }))),
  notes: Type.Optional(Notes),
}

export const ExperienceCreate = Type.Object(ExperienceFields, {
  examples: [
    {
      companyName: 'Nordic Shipping',
      position: 'Second Engineer',
      shipType: 'Bulk carrier',
      startDate: '2022-01-10',
      endDate: '2024-12-20',
    },
  ],
  title: 'ExperienceCreate',
})
export type ExperienceCreate = Static<typeof ExperienceCreate>
export const ExperienceUpdate = Type.Partial(Type.Object(ExperienceFields), { examples: [{ endDate: null }], title: 'ExperienceUpdate' })
export type ExperienceUpdate = Static<typeof ExperienceUpdate>

/** The fields a request sets, and their columns (src/lib/columns.ts). */
export const EXPERIENCE_COLUMNS = {
  companyName: 'company_name',
  position: 'position',
  shipType: 'ship_type',
  startDate: 'start_date',
  endDate: 'end_date',
  notes: 'notes',
} as const
/** The end date may not be before the start date (DECISIONS §3). */
export const EXPERIENCE_DATE_ORDER = [['startDate', 'endDate']] as const

export const ExperienceParams = IdParams('experience_id')
