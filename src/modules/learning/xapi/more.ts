import { createHmac, timingSafeEqual } from 'node:crypto'
import { badRequest } from './errors.js'
import type { Presentation } from './statement-params.js'
import type { StatementFilter } from './statements.read.queries.js'

/** Where the next page starts: the first page's query, its pinned `until` and the last statement given. */
export type MoreState = { filter: StatementFilter } & Presentation

/**
 * `more` tokens (DECISIONS §13.7): the query state as base64url JSON and an HMAC-SHA256 of it and the
 * organization, under a key derived from the service's secret. The LRS reads back only what it signed
 * for that organization: an altered, forged or borrowed token is a 400, never a query it did not make.
 */
export function moreTokens(secret: string) {
  const key = createHmac('sha256', secret).update('xapi more tokens').digest()
  const sign = (orgId: string, payload: string) => createHmac('sha256', key).update(`${orgId}.${payload}`).digest()
  return {
    encode(orgId: string, state: MoreState): string {
      const payload = Buffer.from(JSON.stringify(state)).toString('base64url')
      return `${payload}.${sign(orgId, payload).toString('base64url')}`
    },
    decode(orgId: string, token: string): MoreState {
      const [payload, signature, extra] = token.split('.')
      const given = Buffer.from(signature ?? '', 'base64url')
      const expected = sign(orgId, payload)
      if (extra !== undefined || given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw badRequest('more: not a link this LRS gave')
      }
      return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
    },
  }
}
export type MoreTokens = ReturnType<typeof moreTokens>
