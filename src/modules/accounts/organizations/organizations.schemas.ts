import Type, { type Static, type TSchema } from 'typebox'
import { PRODUCTS, RECORD_TYPES } from '../../../db/schema.js'
import { Nullable, Uuid } from '../../../lib/schemas.js'

// DECISIONS §10: the organization and its settings. The per-type maps take document and certificate
// types of §3 as keys; any other key is a 422 at that key.

const days = (minimum: number, description: string) => Type.Integer({ minimum, maximum: 3650, description })
const PER_TYPE_DAYS = { minimum: 0, maximum: 3650 }

/** A map from type to days; in a PATCH an entry may be null, which removes it. */
const perType = (value: TSchema, description: string, example: Record<string, number>) =>
  Type.Object(Object.fromEntries(RECORD_TYPES.map((type) => [type, Type.Optional(value)])), {
    additionalProperties: false,
    description,
    examples: [example],
  })

const WINDOW = 'The expiring_soon window per document or certificate type, in days; a type not listed uses defaultExpiryWindowDays'
const MARGIN = 'How many days past sign-off a document of that type must still be valid; a type not listed needs 0'

export const Settings = Type.Object(
  {
    defaultExpiryWindowDays: Type.Integer({
      description: 'The expiring_soon window of types not in expiryWindowDays (default EXPIRING_SOON_DAYS, 90)',
    }),
    expiryWindowDays: Type.Record(Type.String(), Type.Integer(), { description: WINDOW, examples: [{ passport: 180 }] }),
    validityMarginDays: Type.Record(Type.String(), Type.Integer(), { description: MARGIN, examples: [{ passport: 180 }] }),
    openEndedHorizonDays: Type.Integer({
      description: 'Readiness of an assignment without endDate is judged through as_of + this many days',
    }),
    expiryNotificationDays: Type.Array(Type.Integer(), { description: 'Days before expiry at which a document.expiring notice is sent' }),
  },
  { title: 'OrganizationSettings' },
)
export type Settings = Static<typeof Settings>

export const Organization = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    domain: Nullable(Type.String()),
    products: Type.Array(Type.Enum(PRODUCTS)),
    settings: Settings,
  },
  {
    title: 'Organization',
    examples: [
      {
        id: '01935c1e-7f3a-7c2e-9a4b-5d6e7f809a1b',
        name: 'Blue Line Shipping',
        domain: 'blueline.example',
        products: ['learn', 'crew'],
        settings: {
          defaultExpiryWindowDays: 90,
          expiryWindowDays: { passport: 180 },
          validityMarginDays: { passport: 180 },
          openEndedHorizonDays: 180,
          expiryNotificationDays: [90, 60, 30, 7],
        },
      },
    ],
  },
)
export type Organization = Static<typeof Organization>

export const SettingsUpdate = Type.Object(
  {
    defaultExpiryWindowDays: Type.Optional(Nullable(days(1, 'null goes back to the default'))),
    expiryWindowDays: Type.Optional(
      Nullable(
        perType(Nullable(Type.Integer(PER_TYPE_DAYS)), `${WINDOW}. Merged entry by entry; null removes an entry`, { passport: 180 }),
      ),
    ),
    validityMarginDays: Type.Optional(
      Nullable(
        perType(Nullable(Type.Integer(PER_TYPE_DAYS)), `${MARGIN}. Merged entry by entry; null removes an entry`, { passport: 180 }),
      ),
    ),
    openEndedHorizonDays: Type.Optional(Nullable(days(1, 'null goes back to the default (180)'))),
    expiryNotificationDays: Type.Optional(
      Nullable(
        Type.Array(Type.Integer({ minimum: 1, maximum: 3650 }), {
          minItems: 1,
          maxItems: 10,
          uniqueItems: true,
          examples: [[90, 60, 30, 7]],
        }),
      ),
    ),
  },
  { title: 'OrganizationSettingsUpdate', description: 'Only the keys sent change; null sets a key back to its default' },
)
export type SettingsUpdate = Static<typeof SettingsUpdate>

export const OrganizationUpdate = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
    settings: Type.Optional(SettingsUpdate),
  },
  {
    title: 'OrganizationUpdate',
    examples: [{ settings: { expiryWindowDays: { passport: 180, us_visa: null }, openEndedHorizonDays: 120 } }],
  },
)
export type OrganizationUpdate = Static<typeof OrganizationUpdate>
