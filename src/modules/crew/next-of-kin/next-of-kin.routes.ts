import Type from 'typebox'
import { assertCanReachUser, RECORD_WRITERS, rowOwner } from '../../../lib/access.js'
import { columnsOf } from '../../../lib/columns.js'
import { notFound } from '../../../lib/errors.js'
import { NoContent } from '../../../lib/schemas.js'
import { listOfUser } from '../reviewed-records/reviewed-records.service.js'
import type { ModulePlugin } from '../../types.js'
import { UserParams } from '../../accounts/users/users.schemas.js'
import { deleteNextOfKin, insertNextOfKin, listNextOfKin, toNextOfKin, updateNextOfKin } from './next-of-kin.queries.js'
import { NEXT_OF_KIN_COLUMNS, NextOfKin, NextOfKinCreate, NextOfKinParams, NextOfKinUpdate } from './next-of-kin.schemas.js'

const tags = ['next of kin']
const LABEL = 'Next of kin'

/** A user's emergency contacts (DECISIONS §3): under /api/v1/crew/users/:user_id/next-of-kin. */
export const userNextOfKinRoutes: ModulePlugin = (app, { db }) => {
  app.post(
    '/',
    {
      config: { roles: RECORD_WRITERS },
      schema: {
        operationId: 'createNextOfKin',
        summary: 'Add a next of kin',
        description: "Crew add their own, admins and office admins anyone's.",
        tags,
        params: UserParams,
        body: NextOfKinCreate,
        response: { 201: NextOfKin },
      },
    },
    async (request, reply) => {
      const { actor, params } = request
      assertCanReachUser(actor, params.user_id)
      const created = await insertNextOfKin(db, actor, params.user_id, columnsOf(NEXT_OF_KIN_COLUMNS, request.body))
      if (!created) throw notFound('User')
      return reply.status(201).send(created)
    },
  )

  app.get(
    '/',
    {
      schema: {
        operationId: 'listNextOfKin',
        summary: "List a user's next of kin",
        description: "Crew see their own, staff anyone's.",
        tags,
        params: UserParams,
        response: { 200: Type.Array(NextOfKin) },
      },
    },
    async (request) => {
      const { actor, params } = request
      return (await listOfUser(db, actor, params.user_id, () => listNextOfKin(db, actor.orgId, params.user_id))).map(toNextOfKin)
    },
  )
}

/** One contact: under /api/v1/crew/next-of-kin. */
export const nextOfKinRoutes: ModulePlugin = (app, { db }) => {
  app.patch(
    '/:next_of_kin_id',
    {
      config: { roles: RECORD_WRITERS },
      schema: {
        operationId: 'updateNextOfKin',
        summary: 'Update a next of kin',
        description: "Crew change their own, admins and office admins anyone's. Only the fields sent change.",
        tags,
        params: NextOfKinParams,
        body: NextOfKinUpdate,
        response: { 200: NextOfKin },
      },
    },
    async (request) => {
      const { actor, params } = request
      const columns = columnsOf(NEXT_OF_KIN_COLUMNS, request.body)
      const contact = await updateNextOfKin(db, actor, params.next_of_kin_id, rowOwner(actor), columns)
      if (!contact) throw notFound(LABEL)
      return contact
    },
  )

  app.delete(
    '/:next_of_kin_id',
    {
      config: { roles: RECORD_WRITERS },
      schema: {
        operationId: 'deleteNextOfKin',
        summary: 'Delete a next of kin',
        description: "Crew delete their own, admins and office admins anyone's.",
        tags,
        params: NextOfKinParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { actor, params } = request
      if (!(await deleteNextOfKin(db, actor, params.next_of_kin_id, rowOwner(actor)))) throw notFound(LABEL)
      return reply.status(204).send(null)
    },
  )
}
