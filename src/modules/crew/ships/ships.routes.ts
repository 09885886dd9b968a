import { ADMIN } from '../../../lib/access.js'
import { columnsOf } from '../../../lib/columns.js'
import { notFound } from '../../../lib/errors.js'
import { ErrorBody, NoContent } from '../../../lib/schemas.js'
import type { ModulePlugin } from '../../types.js'
import { normalizeImo } from './imo.js'
import { createShip, deleteShip, findShip, listShips, type ShipColumns, toShip, updateShip } from './ships.queries.js'
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
      schema: {
        operationId: 'createShip',
        summary: 'Create a ship',
        description: 'Admins only. The IMO number is checked (check digit) and stored as 7 digits; it is unique in the organization (409).',
        tags,
        body: ShipCreate,
        response: { 201: Ship, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const columns = toColumns(request.body) as ShipColumns & {
        name: string
        imo_number: string
      }
      return reply.status(201).send(await createShip(db, request.actor, columns))
    },
  )

  app.get(
    '/',
    {
      schema: {
        operationId: 'listShips',
        summary: 'List ships',
        description: "The organization's fleet, cursor-paged; `search` matches name and IMO number.",
        tags,
        querystring: ShipListQuery,
        response: { 200: ShipPage },
      },
    },
    async (request) => listShips(db, request.actor.orgId, request.query),
  )

  app.get(
    '/:ship_id',
    {
      schema: {
        operationId: 'getShip',
        summary: 'Get a ship',
        description: "Another organization's ship is 404 like a missing one.",
        tags,
        params: ShipParams,
        response: { 200: Ship },
      },
    },
    async (request) => {
      const row = await findShip(db, request.actor.orgId, request.params.ship_id)
      if (!row) throw notFound('Ship')
      return toShip(row)
    },
  )

  app.patch(
    '/:ship_id',
    {
      config: { roles: ADMIN },
      schema: {
        operationId: 'updateShip',
        summary: 'Update a ship',
        description: 'Admins only. Only the fields sent change; a taken IMO number is a 409.',
        tags,
        params: ShipParams,
        body: ShipUpdate,
        response: { 200: Ship, 409: ErrorBody },
      },
    },
    async ({ actor, params, body }) => {
      const ship = await updateShip(db, actor, params.ship_id, toColumns(body))
      if (!ship) throw notFound('Ship')
      return ship
    },
  )

  app.delete(
    '/:ship_id',
    {
      config: { roles: ADMIN },
      schema: {
        operationId: 'deleteShip',
        summary: 'Delete a ship',
        description: 'Admins only. A ship that still has assignments is a 409.',
        tags,
        params: ShipParams,
        response: { 204: NoContent, 409: ErrorBody },
      },
    },
    async ({ actor, params }, reply) => {
      if (!(await deleteShip(db, actor, params.ship_id))) throw notFound('Ship')
      return reply.status(204).send(null)
    },
  )
}
