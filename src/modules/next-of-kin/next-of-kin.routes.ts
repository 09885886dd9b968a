import Type from 'typebox'
import { definedOnly } from '../../lib/columns.js'
import { notFound } from '../../lib/errors.js'
import { NoContent } from '../../lib/schemas.js'
import type { Module } from '../types.js'
import { ownerScope, RECORD_WRITERS, reachUser } from '../verifications/records.js'
import { UserParams } from '../verifications/verifications.schemas.js'
import { deleteNextOfKin, insertNextOfKin, listNextOfKin, toNextOfKin, updateNextOfKin } from './next-of-kin.queries.js'
import { NextOfKin, NextOfKinCreate, NextOfKinParams, NextOfKinUpdate } from './next-of-kin.schemas.js'

const tags = ['next of kin']

const toColumns = (body: NextOfKinUpdate) =>
  definedOnly({ relationship: body.relationship, full_name: body.fullName, phone: body.phone, email: body.email, address: body.address })

export const nextOfKinRoutes: Module = (app, { db }) => {
  app.post(
    '/api/v1/crew/users/:user_id/next-of-kin',
    { config: { roles: RECORD_WRITERS }, schema: { tags, params: UserParams, body: NextOfKinCreate, response: { 201: NextOfKin } } },
    async (request, reply) => {
      const { actor, params, body } = request
      await reachUser(db, actor, params.user_id)
      const row = await insertNextOfKin(db, actor.orgId, params.user_id, {
        ...toColumns(body),
        relationship: body.relationship,
        full_name: body.fullName,
      })
      return reply.status(201).send(toNextOfKin(row))
    },
  )

  app.get(
    '/api/v1/crew/users/:user_id/next-of-kin',
    { schema: { tags, params: UserParams, response: { 200: Type.Array(NextOfKin) } } },
    async (request) => {
      await reachUser(db, request.actor, request.params.user_id)
      return (await listNextOfKin(db, request.actor.orgId, request.params.user_id)).map(toNextOfKin)
    },
  )

  app.patch(
    '/api/v1/crew/next-of-kin/:next_of_kin_id',
    { config: { roles: RECORD_WRITERS }, schema: { tags, params: NextOfKinParams, body: NextOfKinUpdate, response: { 200: NextOfKin } } },
    async (request) => {
      const { actor, params } = request
      const row = await updateNextOfKin(db, actor.orgId, params.next_of_kin_id, toColumns(request.body), ownerScope(actor))
      if (!row) throw notFound('Next of kin')
      return toNextOfKin(row)
    },
  )

  app.delete(
    '/api/v1/crew/next-of-kin/:next_of_kin_id',
    { config: { roles: RECORD_WRITERS }, schema: { tags, params: NextOfKinParams, response: { 204: NoContent } } },
    async (request, reply) => {
      const { actor, params } = request
      if (!(await deleteNextOfKin(db, actor.orgId, params.next_of_kin_id, ownerScope(actor)))) throw notFound('Next of kin')
      return reply.status(204).send(null)
    },
  )
}
