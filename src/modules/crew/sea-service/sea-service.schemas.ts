import Type, { type Static } from 'typebox'
import { EXPERIENCE_SOURCES } from '../../../db/schema.js'
import { ExportFormat } from '../../../lib/csv.js'
import { DateString, ListQuery, Nullable, Page, Uuid } from '../../../lib/schemas.js'

// DECISIONS §14: a person's sea service and the fleet's.

const AsOfParameter = Type.Optional(
  Type.String({ format: 'date', examples: ['2026-06-15'], description: 'Only days up to this date count (default: today, UTC)' }),
)
const Days = Type.Integer({ minimum: 0, description: 'Calendar days, both ends included' })

export const SeaServiceQuery = Type.Object({ as_of: AsOfParameter })
export type SeaServiceQuery = Static<typeof SeaServiceQuery>

const Period = Type.Object({
  source: Type.Enum(EXPERIENCE_SOURCES, { description: '"assignment" when made from an ended assignment' }),
  id: Uuid,
  shipName: Nullable(Type.String({ description: "The assignment's ship; null for rows typed by people" })),
  shipType: Nullable(Type.String()),
  role: Type.String({ description: "The experience row's position" }),
  startDate: DateString,
  endDate: Nullable(DateString),
  days: Type.Integer({ minimum: 1, description: 'Its own days up to asOf' }),
  countedDays: Type.Integer({
    minimum: 0,
    description: 'The days it contributes: 0 unless verified; days an earlier period holds are not counted again',
  }),
})

export const SeaService = Type.Object(
  {
    asOf: DateString,
    totalDays: Days,
    byRole: Type.Array(Type.Object({ role: Type.String(), days: Days }), { description: 'Most days first' }),
    byShipType: Type.Array(Type.Object({ shipType: Nullable(Type.String()), days: Days }), { description: 'Most days first' }),
    periods: Type.Array(Period, { description: 'Every experience row starting on or before asOf, oldest first' }),
    overlaps: Type.Array(
      Type.Object({
        ids: Type.Array(Uuid, { minItems: 2, maxItems: 2, description: 'The earlier period first' }),
        days: Type.Integer({ minimum: 1, description: 'The days both cover' }),
      }),
      { description: 'Each pair of counted periods sharing days' },
    ),
    lastFiveYearsDays: Days,
    lastSixMonthsDays: Days,
    revalidation: Type.Object(
      {
        eligible: Type.Boolean({ description: 'At least 365 days in the last five years (STCW regulation I/11)' }),
        daysNeeded: Days,
      },
      { description: 'STCW regulation I/11: revalidating a certificate of competency' },
    ),
  },
  {
    title: 'SeaService',
    examples: [
      {
        asOf: '2026-06-15',
        totalDays: 380,
        byRole: [{ role: 'Second Officer', days: 380 }],
        byShipType: [{ shipType: 'bulk_carrier', days: 380 }],
        periods: [
          {
            source: 'assignment',
            id: '0190a000-0000-7000-8000-000000000a21',
            shipName: 'Nordic Star',
            shipType: 'bulk_carrier',
            role: 'Second Officer',
            startDate: '2025-01-01',
            endDate: '2025-06-30',
            days: 181,
            countedDays: 181,
          },
          {
            source: 'manual',
            id: '0190a000-0000-7000-8000-000000000a22',
            shipName: null,
            shipType: 'bulk_carrier',
            role: 'Second Officer',
            startDate: '2025-06-01',
            endDate: '2026-01-15',
            days: 229,
            countedDays: 199,
          },
        ],
        overlaps: [{ ids: ['0190a000-0000-7000-8000-000000000a21', '0190a000-0000-7000-8000-000000000a22'], days: 30 }],
        lastFiveYearsDays: 380,
        lastSixMonthsDays: 31,
        revalidation: { eligible: true, daysNeeded: 0 },
      },
    ],
  },
)
export type SeaService = Static<typeof SeaService>

const { limit, cursor, include_count } = ListQuery.properties

export const FleetSeaServiceQuery = Type.Object({
  limit,
  cursor,
  include_count,
  role: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'daysInRole counts the days in this position (trimmed, case-insensitively)' }),
  ),
  ship_type: Type.Optional(Type.String({ minLength: 1, maxLength: 300, description: 'Count only periods of this ship type' })),
  min_days: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 36500, description: 'Only people with at least this many days (in `role` when given)' }),
  ),
  as_of: AsOfParameter,
  format: ExportFormat,
})
export type FleetSeaServiceQuery = Static<typeof FleetSeaServiceQuery>

export const FleetSeaServiceItem = Type.Object(
  {
    userId: Uuid,
    userName: Type.String(),
    totalDays: Days,
    daysInRole: Nullable(Type.Integer({ minimum: 0, description: 'The days in `role`; null without `role`' })),
    lastFiveYearsDays: Days,
    eligible: Type.Boolean({ description: 'lastFiveYearsDays ≥ 365' }),
  },
  {
    title: 'FleetSeaServiceItem',
    examples: [
      {
        userId: '01935c1e-6a10-7d2e-8b4b-1d2e3f405a6b',
        userName: 'Maria Santos',
        totalDays: 1460,
        daysInRole: 620,
        lastFiveYearsDays: 1100,
        eligible: true,
      },
    ],
  },
)
export type FleetSeaServiceItem = Static<typeof FleetSeaServiceItem>
export const FleetSeaServicePage = Page(FleetSeaServiceItem)
