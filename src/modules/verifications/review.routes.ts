import type { TSchema } from 'typebox'
import { RECORD_WRITERS, STAFF } from '../../lib/access.js'
import { RejectBody, Verification } from './verifications.schemas.js'

/**
 * The options of an item's review routes, POST …/{id}/submit, /verify and /reject (DECISIONS §3, §8),
 * for the item routes of documents, certificates and experience to declare with their own paths.
 */
export const reviewRouteOptions = <P extends TSchema>(tags: string[], params: P) => ({
  submit: { config: { roles: RECORD_WRITERS }, schema: { tags, summary: 'Submit for review', params, response: { 200: Verification } } },
  verify: { config: { roles: STAFF }, schema: { tags, summary: 'Verify', params, response: { 200: Verification } } },
  reject: {
    config: { roles: STAFF },
    schema: { tags, summary: 'Reject with a reason', params, body: RejectBody, response: { 200: Verification } },
  },
})
