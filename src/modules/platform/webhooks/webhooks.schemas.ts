import Type, { type Static } from 'typebox'
import { DELIVERY_STATUSES } from '../../../db/schema.js'
import { EventNames, Target } from '../audit/audit.schemas.js'
import { EVENT_TYPES } from '../audit/event-types.js'
import { DateTime, IdParams, ListQuery, Nullable, Page, Uuid } from '../../../lib/schemas.js'
import { registerFormat } from '../../../lib/validation.js'

const PREFIXES = new Set(EVENT_TYPES.map((type) => `${type.split('.')[0]}.*`))

/** A listed type, `prefix.*` for a prefix some listed type has, or `*` (DECISIONS §11). */
export const isEventPattern = (value: string) => value === '*' || PREFIXES.has(value) || (EVENT_TYPES as readonly string[]).includes(value)

registerFormat('event-pattern', isEventPattern, 'Value is not an event type, a "prefix.*" of event types, or "*"')

const Url = Type.String({ minLength: 1, maxLength: 2048, description: 'Absolute https:// URL (http:// only where the service allows it)' })
const Patterns = Type.Array(Type.String({ format: 'event-pattern' }), { minItems: 1, maxItems: 50 })
const Description = Nullable(Type.String({ maxLength: 1000 }))

const example = {
  id: '0190a000-0000-7000-8000-000000000b01',
  url: 'https://hooks.example.com/seaworthy',
  events: ['identity_document.*', 'document.expiring'],
  description: 'Payroll sync',
  active: true,
  createdAt: '2026-06-15T08:30:00.000Z',
}
const exampleSecret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

export const Webhook = Type.Object(
  {
    id: Uuid,
    url: Type.String(),
    events: Type.Array(Type.String()),
    description: Nullable(Type.String()),
    active: Type.Boolean(),
    createdAt: DateTime,
  },
  { title: 'Webhook', examples: [example] },
)
export type Webhook = Static<typeof Webhook>

export const WebhookCreated = Type.Object(
  { ...Webhook.properties, secret: Type.String({ description: 'Shown only here and on rotation: keep it' }) },
  { title: 'WebhookCreated', examples: [{ ...example, secret: exampleSecret }] },
)

export const WebhookCreate = Type.Object(
  { url: Url, events: Patterns, description: Type.Optional(Description) },
  { title: 'WebhookCreate', examples: [{ url: example.url, events: example.events, description: example.description }] },
)
export type WebhookCreate = Static<typeof WebhookCreate>

export const WebhookUpdate = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Patterns),
    description: Type.Optional(Description),
    active: Type.Optional(Type.Boolean()),
  },
  { title: 'WebhookUpdate', examples: [{ active: false }] },
)
export type WebhookUpdate = Static<typeof WebhookUpdate>

export const WebhookSecret = Type.Object({ secret: Type.String() }, { title: 'WebhookSecret', examples: [{ secret: exampleSecret }] })
export const WebhookTestResult = Type.Object(
  { eventId: Uuid },
  { title: 'WebhookTestResult', examples: [{ eventId: '0190a000-0000-7000-8000-000000000e01' }] },
)

export const Delivery = Type.Object(
  {
    id: Uuid,
    eventId: Uuid,
    eventType: Type.String(),
    attempt: Type.Integer({ description: 'Attempts made so far' }),
    status: Type.Enum(DELIVERY_STATUSES),
    responseStatus: Nullable(Type.Integer({ description: 'Of the last attempt; null before the first or on a timeout' })),
    durationMs: Nullable(Type.Integer()),
    createdAt: DateTime,
    nextAttemptAt: Nullable(DateTime),
    target: Target,
    ...EventNames.properties,
  },
  {
    title: 'WebhookDelivery',
    description: "One event's delivery to one subscription, with the event's target and the people and record it concerns by name.",
    examples: [
      {
        id: '0190a000-0000-7000-8000-000000000d01',
        eventId: '0190a000-0000-7000-8000-000000000e01',
        eventType: 'identity_document.created',
        attempt: 1,
        status: 'pending',
        responseStatus: 500,
        durationMs: 42,
        createdAt: '2026-06-15T08:30:00.000Z',
        nextAttemptAt: '2026-06-15T08:30:05.000Z',
        target: { type: 'identity_document', id: '0190a000-0000-7000-8000-000000000c01' },
        actorName: 'Olav Hansen',
        personId: '0190a000-0000-7000-8000-000000000a03',
        personName: 'Ana Lima',
        targetKind: 'passport',
        targetName: 'P1234567',
      },
    ],
  },
)
export type Delivery = Static<typeof Delivery>

export const WebhookListQuery = Type.Omit(ListQuery, ['search'])
export const WebhookPage = Page(Webhook)
export const DeliveryPage = Page(Delivery)
export const WebhookParams = IdParams('webhook_id')
export const DeliveryParams = Type.Object({ webhook_id: Uuid, delivery_id: Uuid })
