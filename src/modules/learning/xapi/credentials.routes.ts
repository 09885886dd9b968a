import { randomBytes } from 'node:crypto'
import { v7 as uuidv7 } from 'uuid'
import { ADMIN } from '../../../lib/access.js'
import { notFound } from '../../../lib/errors.js'
import { NoContent } from '../../../lib/schemas.js'
import type { ModulePlugin } from '../../types.js'
import { hashSecret } from './auth.js'
import { createCredential, deleteCredential, listCredentials } from './credentials.queries.js'
import {
  toCredential,
  XapiCredentialCreate,
  XapiCredentialCreated,
  XapiCredentialListQuery,
  XapiCredentialPage,
  XapiCredentialParams,
} from './credentials.schemas.js'

const tags = ['learning records']
const config = { roles: ADMIN }

/** The LRS's credentials (DECISIONS §13.1): admins create, list and delete them; the secret is shown once. */
export const xapiCredentialsRoutes: ModulePlugin = (app, { db }) => {
  // An API resource below the LRS's prefix: a URL of no route here answers the API's 404, not xAPI's.
  app.setNotFoundHandler((_request, reply) => reply.status(404).send({ detail: 'Not Found' }))
  app.post(
    '/',
    {
      config,
      schema: {
        operationId: 'createXapiCredential',
        summary: 'Create an LRS credential',
        description:
          'Admins only. Clients send `key:secret` with HTTP Basic to the xAPI resources under /api/v1/learn/xapi/. The secret is in this answer only (stored as a hash): a lost secret is replaced by a new credential.',
        tags,
        body: XapiCredentialCreate,
        response: { 201: XapiCredentialCreated },
      },
    },
    async (request, reply) => {
      const secret = randomBytes(32).toString('base64url')
      const created = await createCredential(db, request.actor, {
        id: uuidv7(),
        name: request.body.name,
        key: randomBytes(16).toString('hex'),
        secret_hash: hashSecret(secret),
        scopes: request.body.scopes ?? ['all'],
      })
      return reply.status(201).send({ ...toCredential(created), secret })
    },
  )

  app.get(
    '/',
    {
      config,
      schema: {
        operationId: 'listXapiCredentials',
        summary: 'List LRS credentials',
        description: 'Admins only. Newest first, cursor-paged; secrets are never listed.',
        tags,
        querystring: XapiCredentialListQuery,
        response: { 200: XapiCredentialPage },
      },
    },
    async (request) => listCredentials(db, request.actor.orgId, request.query),
  )

  app.delete(
    '/:credential_id',
    {
      config,
      schema: {
        operationId: 'deleteXapiCredential',
        summary: 'Delete an LRS credential',
        description: "Admins only. Refused from the next request on; what it wrote stays. Another organization's credential is 404.",
        tags,
        params: XapiCredentialParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      if (!(await deleteCredential(db, request.actor, request.params.credential_id))) throw notFound('Credential')
      return reply.status(204).send(null)
    },
  )
}
