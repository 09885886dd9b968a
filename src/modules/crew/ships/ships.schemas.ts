import Type, { type Static } from 'typebox'
import './imo.js'
import { SHIP_TYPES } from '../../../db/schema.js'
import { DateTime, IdParams, ListQuery, Nullable, Page, Uuid } from '../../../lib/schemas.js'

const Name = Type.String({ minLength: 1, maxLength: 300 })
const Short = (max: number) => Nullable(Type.String({ maxLength: max }))
export const ShipType = Type.Enum(SHIP_TYPES, { description: 'The kind of ship (DECISIONS §14)' })
/** Gross tonnage and propulsion power: positive whole numbers (PostgreSQL's integer). */
const Positive = (description: string) => Nullable(Type.Integer({ minimum: 1, maximum: 2147483647, description }))

export const Ship = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    imoNumber: Type.String(),
    mmsi: Nullable(Type.String()),
    callSign: Nullable(Type.String()),
    flag: Nullable(Type.String()),
    portOfRegistry: Nullable(Type.String()),
    shipType: Nullable(ShipType),
    grossTonnage: Nullable(Type.Integer()),
    propulsionPowerKw: Nullable(Type.Integer()),
    createdAt: DateTime,
  },
  {
    title: 'Ship',
    examples: [
      {
        id: '0190a000-0000-7000-8000-000000000a02',
        name: 'Nordic Star',
        imoNumber: '9074729',
        mmsi: '257123450',
        callSign: 'LAXY7',
        flag: 'Norway',
        portOfRegistry: 'Bergen',
        shipType: 'bulk_carrier',
        grossTonnage: 32500,
        propulsionPowerKw: 9480,
        createdAt: '2026-06-15T08:30:00.000Z',
      },
    ],
  },
)
export type Ship = Static<typeof Ship>

const ShipFields = {
  name: Name,
  imoNumber: Type.String({
    format: 'imo-number',
    description: '7 digits with a valid IMO check digit; "IMO 9074729" is accepted',
  }),
  mmsi: Type.Optional(Short(20)),
  callSign: Type.Optional(Short(20)),
  flag: Type.Optional(Short(100)),
  portOfRegistry: Type.Optional(Short(300)),
  shipType: Type.Optional(Nullable(ShipType)),
  grossTonnage: Type.Optional(Positive('Gross tonnage (GT)')),
  propulsionPowerKw: Type.Optional(Positive('Main propulsion power in kW')),
}

export const ShipCreate = Type.Object(ShipFields, {
  title: 'ShipCreate',
  examples: [{ name: 'Nordic Star', imoNumber: 'IMO 9074729', flag: 'Norway', shipType: 'bulk_carrier', grossTonnage: 32500 }],
})
export const ShipUpdate = Type.Partial(Type.Object(ShipFields), { title: 'ShipUpdate', examples: [{ portOfRegistry: 'Bergen' }] })
export type ShipUpdate = Static<typeof ShipUpdate>

/** The wire fields a request sets, and their columns (src/lib/columns.ts). */
export const SHIP_COLUMNS = {
  name: 'name',
  imoNumber: 'imo_number',
  mmsi: 'mmsi',
  callSign: 'call_sign',
  flag: 'flag',
  portOfRegistry: 'port_of_registry',
  shipType: 'ship_type',
  grossTonnage: 'gross_tonnage',
  propulsionPowerKw: 'propulsion_power_kw',
} as const

export const ShipPage = Page(Ship)
export const ShipParams = IdParams('ship_id')
export const ShipListQuery = ListQuery
