import type { TSchema } from 'typebox'
import { RECORD_WRITERS, STAFF } from '../../../lib/access.js'
import { ErrorBody } from '../../../lib/schemas.js'
import { RejectBody, Verification } from './verifications.schemas.js'

/**
 * The options of an item's review routes, POST …/{id}/submit, /verify and /reject (DECISIONS §3, §8),
 * for the item routes of documents, certificates and experience to declare with their own paths.
 * `name` (e.g. `IdentityDocument`) makes their operation ids: `submitIdentityDocument`, ….
 */
export const reviewRouteOptions = <P extends TSchema>(tags: string[], params: P, name: string) => {
  const response = { 200: Verification, 409: ErrorBody }
  return {
    submit: {
      config: { roles: RECORD_WRITERS },
      schema: {
        operationId: `submit${name}`,
        tags,
        summary: 'Submit for review',
        description:
          "Crew submit their own, admins and office admins anyone's. Moves the verification from not submitted or rejected to pending; from any other state it is a 409.",
        params,
        response,
      },
    },
    verify: {
      config: { roles: STAFF },
      schema: {
        operationId: `verify${name}`,
        tags,
        summary: 'Verify',
        description: 'Staff only. Moves a pending verification to verified; from any other state it is a 409.',
        params,
        response,
      },
    },
    reject: {
      config: { roles: STAFF },
      schema: {
        operationId: `reject${name}`,
        tags,
        summary: 'Reject with a reason',
        description: 'Staff only. Moves a pending verification to rejected with the reason; from any other state it is a 409.',
        params,
        body: RejectBody,
        response,
      },
    },
  }
}
