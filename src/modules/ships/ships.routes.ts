import { ADMIN } from '../../lib/access.js'
import { columnsOf } from '../../lib/columns.js'
import { notFound } from '../../lib/errors.js'
import { NoContent } from '../../lib/schemas.js'
import type { ModulePlugin } from '../types.js'
import { normalizeImo } from './imo.js'
import { deleteShip, findShip, insertShip, listShips, type ShipColumns, toShip, updateShip } from './ships.queries.js'
import { SHIP_COLUMNS, Ship, ShipCreate, ShipListQuery, ShipPage, ShipParams, ShipUpdate } from './ships.schemas.js'

const tags = ['ships']

/** The columns a request sets, the IMO number in its stored form. */
function toColumns(body: ShipUpdate): ShipColumns {
  const imoNumber = body.imoNumber === undefined ? undefined : normalizeImo(body.imoNumber)!
  return columnsOf(SHIP_COLUMNS, { ...body, imoNumber })
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
