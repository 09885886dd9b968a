import { isDeepStrictEqual } from 'node:util'
import { ADMIN } from '../../../lib/access.js'
import { conflict, notFound } from '../../../lib/errors.js'
import { ErrorBody, NoContent } from '../../../lib/schemas.js'
import type { ModulePlugin } from '../../types.js'
import { assertTarget } from './target-guard.js'
import {
  deleteWebhook,
  findDelivery,
  findWebhook,
  insertTestEvent,
  insertWebhook,
  listDeliveries,
  listWebhooks,
  newSecret,
  requeueDelivery,
  toWebhook,
  updateWebhook,
} from './webhooks.queries.js'
import {
  Delivery,
  DeliveryPage,
  DeliveryParams,
  WebhookCreate,
  WebhookCreated,
  WebhookListQuery,
  WebhookPage,
  WebhookParams,
  Webhook as WebhookSchema,
  WebhookSecret,
  WebhookTestResult,
  WebhookUpdate,
} from './webhooks.schemas.js'

const tags = ['webhooks']
const config = { roles: ADMIN }

export const webhooksRoutes: ModulePlugin = (app, { db, config: { webhooks: rules } }) => {
  app.post(
    '/',
    {
      config,
      schema: {
        operationId: 'createWebhook',
        summary: 'Subscribe to events',
        description:
          'Admins only. The answer carries the signing `secret`, shown only here and on rotation. The URL must be https:// and must not reach a loopback, private, link-local or unspecified address (422 at `["body","url"]`).',
        tags,
        body: WebhookCreate,
        response: { 201: WebhookCreated },
      },
    },
    async (request, reply) => {
      await assertTarget(request.body.url, rules)
      const secret = newSecret()
      const created = await insertWebhook(db, request.actor, request.body, secret)
      return reply.status(201).send({ ...toWebhook(created), secret })
    },
  )

  app.get(
    '/',
    {
      config,
      schema: {
        operationId: 'listWebhooks',
        summary: 'List webhook subscriptions',
        description: 'Admins only. Newest first, cursor-paged; secrets are never listed.',
        tags,
        querystring: WebhookListQuery,
        response: { 200: WebhookPage },
      },
    },
    async (request) => listWebhooks(db, request.actor.orgId, request.query),
  )

  app.get(
    '/:webhook_id',
    {
      config,
      schema: {
        operationId: 'getWebhook',
        summary: 'Get a webhook subscription',
        description: "Admins only; without its secret. Another organization's subscription is 404 like a missing one.",
        tags,
        params: WebhookParams,
        response: { 200: WebhookSchema },
      },
    },
    async (request) => {
      const row = await findWebhook(db, request.actor.orgId, request.params.webhook_id)
      if (!row) throw notFound('Webhook')
      return toWebhook(row)
    },
  )

  app.patch(
    '/:webhook_id',
    {
      config,
      schema: {
        operationId: 'updateWebhook',
        summary: 'Update a webhook subscription',
        description: 'Admins only. Only the fields sent change; a new URL is checked like on creation.',
        tags,
        params: WebhookParams,
        body: WebhookUpdate,
        response: { 200: WebhookSchema },
      },
    },
    async (request) => {
      if (request.body.url !== undefined) await assertTarget(request.body.url, rules)
      const { orgId } = request.actor
      const id = request.params.webhook_id
      return db.transaction().execute(async (trx) => {
        const before = await findWebhook(trx, orgId, id, true)
        if (!before) throw notFound('Webhook')
        const current = toWebhook(before)
        if (isDeepStrictEqual(current, { ...current, ...request.body })) return current
        return toWebhook((await updateWebhook(trx, request.actor, id, request.body))!)
      })
    },
  )

  app.delete(
    '/:webhook_id',
    {
      config,
      schema: {
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook subscription',
        description: 'Admins only. Its delivery log goes with it.',
        tags,
        params: WebhookParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      if (!(await deleteWebhook(db, request.actor, request.params.webhook_id))) throw notFound('Webhook')
      return reply.status(204).send(null)
    },
  )

  app.post(
    '/:webhook_id/rotate-secret',
    {
      config,
      schema: {
        operationId: 'rotateWebhookSecret',
        summary: 'Rotate the signing secret',
        description: 'Admins only. From now on only the new secret signs, retries of earlier events included.',
        tags,
        params: WebhookParams,
        response: { 200: WebhookSecret },
      },
    },
    async (request) => {
      const secret = newSecret()
      if (!(await updateWebhook(db, request.actor, request.params.webhook_id, { secret }))) throw notFound('Webhook')
      return { secret }
    },
  )

  app.post(
    '/:webhook_id/test',
    {
      config,
      schema: {
        operationId: 'testWebhook',
        summary: 'Send a test event',
        description:
          'Admins only. A `webhook.test` event, delivered to this subscription only whatever its `events`; 409 when it is not active.',
        tags,
        params: WebhookParams,
        response: { 200: WebhookTestResult, 409: ErrorBody },
      },
    },
    async (request) => {
      const { orgId } = request.actor
      const id = request.params.webhook_id
      return db.transaction().execute(async (trx) => {
        const row = await findWebhook(trx, orgId, id, true)
        if (!row) throw notFound('Webhook')
        if (!row.active) throw conflict('The webhook is not active')
        return { eventId: await insertTestEvent(trx, request.actor, id) }
      })
    },
  )

  app.get(
    '/:webhook_id/deliveries',
    {
      config,
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: 'The delivery log of a subscription',
        description: 'Admins only. One row per event and subscription, newest first, cursor-paged.',
        tags,
        params: WebhookParams,
        querystring: WebhookListQuery,
        response: { 200: DeliveryPage },
      },
    },
    async (request) => {
      const { orgId } = request.actor
      if (!(await findWebhook(db, orgId, request.params.webhook_id))) throw notFound('Webhook')
      return listDeliveries(db, orgId, request.params.webhook_id, request.query)
    },
  )

  app.post(
    '/:webhook_id/deliveries/:delivery_id/retry',
    {
      config,
      schema: {
        operationId: 'retryWebhookDelivery',
        summary: 'Send a delivery again',
        description: 'Admins only. Queued to go out within seconds, whatever its status.',
        tags,
        params: DeliveryParams,
        response: { 200: Delivery },
      },
    },
    async (request) => {
      const { webhook_id, delivery_id } = request.params
      // Read in the requeue's transaction: the row stays locked, so the answer is the delivery as queued,
      // never one the delivery worker has already sent again.
      const delivery = await db.transaction().execute(async (trx) => {
        if (!(await requeueDelivery(trx, request.actor.orgId, webhook_id, delivery_id))) return undefined
        return findDelivery(trx, request.actor.orgId, webhook_id, delivery_id)
      })
      if (!delivery) throw notFound('Delivery')
      return delivery
    },
  )
}
