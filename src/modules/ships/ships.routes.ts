import { ADMIN } from '../../lib/access.js'
import { definedOnly } from '../../lib/columns.js'
import { notFound } from '../../lib/errors.js'
import { NoContent } from '../../lib/schemas.js'
import type { ModulePlugin } from '../types.js'
import { normalizeImo } from './imo.js'
import { deleteShip, findShip, insertShip, listShips, type ShipColumns, toShip, updateShip } from './ships.queries.js'
import { Ship, ShipCreate, ShipListQuery, ShipPage, ShipParams, ShipUpdate } from './ships.schemas.js'

const tags = ['ships']

function toColumns(body: ShipUpdate): ShipColumns {
  const columns: ShipColumns = {
    name: body.name,
    mmsi: body.mmsi,
    call_sign: body.callSign,
    flag: body.flag,
    port_of_registry: body.portOfRegistry,
  }
  if (body.imoNumber !== undefined) {
    columns.imo_number = normalizeImo(body.imoNumber)!
  }
  return definedOnly(columns)
}

export const shipsRoutes: ModulePlugin = (app, { db }) => {
  app.post(
    '/',
    {
      config: { roles: ADMIN },
      schema: { tags, body: ShipCreate, response: { 201: Ship } },
    },
    async (request, reply) => {
      const columns = toColumns(request.body) as ShipColumns & {
        name: string
        imo_number: string
      }
      return reply.status(201).send(toShip(await insertShip(db, request.actor.orgId, columns)))
    },
  )

  app.get(
    '/',
    {
      schema: { tags, querystring: ShipListQuery, response: { 200: ShipPage } },
    },
    async (request) => listShips(db, request.actor.orgId, request.query),
  )

  app.get('/:ship_id', { schema: { tags, params: ShipParams, response: { 200: Ship } } }, async (request) => {
    const row = await findShip(db, request.actor.orgId, request.params.ship_id)
    if (!row) throw notFound('Ship')
    return toShip(row)
  })

  app.patch(
    '/:ship_id',
    {
      config: { roles: ADMIN },
      schema: {
        tags,
        params: ShipParams,
        body: ShipUpdate,
        response: { 200: Ship },
      },
    },
    async (request) => {
      const row = await updateShip(db, request.actor.orgId, request.params.ship_id, toColumns(request.body))
      if (!row) throw notFound('Ship')
      return toShip(row)
    },
  )

  app.delete(
    '/:ship_id',
    {
      config: { roles: ADMIN },
      schema: { tags, params: ShipParams, response: { 204: NoContent } },
    },
    async (request, reply) => {
      if (!(await deleteShip(db, request.actor.orgId, request.params.ship_id))) throw notFound('Ship')
      return reply.status(204).send(null)
    },
  )
}
