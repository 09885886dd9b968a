import { isDeepStrictEqual } from 'node:util'
import type { Webhook, WebhookUpdate } from './webhooks.schemas.js'

/** `data.changes` of a `webhook.updated` event: `{field: [before, after]}` for the fields whose value changes, or null. */
export function changesOf(before: Webhook, update: WebhookUpdate): Record<string, [unknown, unknown]> | null {
  const changed = Object.entries(update).filter(
    ([field, value]) => value !== undefined && !isDeepStrictEqual(before[field as keyof Webhook], value),
  )
  if (changed.length === 0) return null
  return Object.fromEntries(changed.map(([field, value]) => [field, [before[field as keyof Webhook], value]]))
}
