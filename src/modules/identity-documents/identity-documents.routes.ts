import Type from 'typebox'
import { RECORD_WRITERS, rowOwner } from '../../lib/access.js'
import { notFound } from '../../lib/errors.js'
import { NoContent } from '../../lib/schemas.js'
import { ExpiryListQuery } from '../crew-records/crew-records.schemas.js'
import { listOfUser, removeReviewed } from '../crew-records/crew-records.service.js'
import type { ModulePlugin } from '../types.js'
import { UserParams } from '../users/users.schemas.js'
import { reviewRouteOptions } from '../verifications/review.routes.js'
import { reject, submit, verify } from '../verifications/verifications.service.js'
import { findIdentityDocument, identityDocumentWire, listIdentityDocuments } from './identity-documents.queries.js'
import { DocumentParams, IdentityDocument, IdentityDocumentCreate, IdentityDocumentUpdate } from './identity-documents.schemas.js'
import { createIdentityDocument, editIdentityDocument, LABEL, target } from './identity-documents.service.js'

const tags = ['identity documents']

/** A user's documents (DECISIONS §3): under /api/v1/crew/users/:user_id/identity-documents. */
export const userIdentityDocumentsRoutes: ModulePlugin = (app, { db, config }) => {
  app.post(
    '/',
    {
      config: { roles: RECORD_WRITERS },
      schema: {
        operationId: 'createIdentityDocument',
        summary: 'Add an identity document',
        description:
          "Crew add their own, admins and office admins anyone's. Optional `uploadId` links a finalized upload; the document awaits review from the start.",
        tags,
        params: UserParams,
        body: IdentityDocumentCreate,
        response: { 201: IdentityDocument },
      },
    },
    async (request, reply) => {
      const { actor, params } = request
      return reply.status(201).send(await createIdentityDocument(db, actor, params.user_id, request.body, config.expiringSoonDays))
    },
  )

  app.get(
    '/',
    {
      schema: {
        operationId: 'listIdentityDocuments',
        summary: "List a user's identity documents",
        description: 'Filter by `expiry_status` (valid, expiring_soon, expired).',
        tags,
        params: UserParams,
        querystring: ExpiryListQuery,
        response: { 200: Type.Array(IdentityDocument) },
      },
    },
    async (request) => {
      const { actor, params } = request
      return listOfUser(db, actor, params.user_id, () =>
        listIdentityDocuments(db, actor.orgId, config.expiringSoonDays, params.user_id, request.query),
      )
    },
  )
}

/** One document and its review: under /api/v1/crew/identity-documents. */
export const identityDocumentRoutes: ModulePlugin = (app, { db, config }) => {
  const review = reviewRouteOptions(tags, DocumentParams, 'IdentityDocument')
  const item = (request: { params: { document_id: string } }) => target(request.params.document_id)

  app.get(
    '/:document_id',
    {
      schema: {
        operationId: 'getIdentityDocument',
        summary: 'Get an identity document',
        description: "Crew reach only their own; another organization's document is 404.",
        tags,
        params: DocumentParams,
        response: { 200: IdentityDocument },
      },
    },
    async (request) => {
      const { actor, params } = request
      const found = await findIdentityDocument(db, actor.orgId, config.expiringSoonDays, params.document_id, rowOwner(actor))
      if (!found) throw notFound(LABEL)
      return found
    },
  )

  app.patch(
    '/:document_id',
    {
      config: { roles: RECORD_WRITERS },
      schema: {
        operationId: 'updateIdentityDocument',
        summary: 'Update an identity document',
        description: "Crew change their own, admins and office admins anyone's. Only the fields sent change; a change to a verified or rejected document sends it back to review.",
        tags,
        params: DocumentParams,
        body: IdentityDocumentUpdate,
        response: { 200: IdentityDocument },
      },
    },
    (request) => editIdentityDocument(db, request.actor, request.params.document_id, request.body, config.expiringSoonDays),
  )

  app.delete(
    '/:document_id',
    {
      config: { roles: RECORD_WRITERS },
      schema: {
        operationId: 'deleteIdentityDocument',
        summary: 'Delete an identity document',
        description: "Crew delete their own, admins and office admins anyone's.",
        tags,
        params: DocumentParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { actor } = request
      const wire = identityDocumentWire(actor.orgId, config.expiringSoonDays)
      await removeReviewed(db, actor, 'identity_documents', item(request), LABEL, wire)
      return reply.status(204).send(null)
    },
  )

  app.post('/:document_id/submit', review.submit, (request) => submit(db, request.actor, item(request), LABEL))
  app.post('/:document_id/verify', review.verify, (request) => verify(db, request.actor, item(request), LABEL))
  app.post('/:document_id/reject', review.reject, (request) => reject(db, request.actor, item(request), LABEL, request.body.reason))
}
