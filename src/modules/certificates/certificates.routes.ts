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
import { certificateWire, findCertificate, listCertificates } from './certificates.queries.js'
import { Certificate, CertificateCreate, CertificateParams, CertificateUpdate } from './certificates.schemas.js'
import { createCertificate, editCertificate, LABEL, target } from './certificates.service.js'

const tags = ['certificates']

/** A user's certificates (DECISIONS §3): under /api/v1/crew/users/:user_id/certificates. */
export const userCertificatesRoutes: ModulePlugin = (app, { db, config }) => {
  app.post(
    '/',
    {
      config: { roles: RECORD_WRITERS },
      schema: {
        operationId: 'createCertificate',
        summary: 'Add a certificate',
        description:
          "Crew add their own, admins and office admins anyone's. Optional `uploadId` links a finalized upload; the certificate awaits review from the start.",
        tags,
        params: UserParams,
        body: CertificateCreate,
        response: { 201: Certificate },
      },
    },
    async (request, reply) => {
      const { actor, params } = request
      return reply.status(201).send(await createCertificate(db, actor, params.user_id, request.body, config.expiringSoonDays))
    },
  )

  app.get(
    '/',
    {
      schema: {
        operationId: 'listCertificates',
        summary: "List a user's certificates",
        description: 'Filter by `expiry_status` (valid, expiring_soon, expired).',
        tags,
        params: UserParams,
        querystring: ExpiryListQuery,
        response: { 200: Type.Array(Certificate) },
      },
    },
    async (request) => {
      const { actor, params } = request
      return listOfUser(db, actor, params.user_id, () =>
        listCertificates(db, actor.orgId, config.expiringSoonDays, params.user_id, request.query),
      )
    },
  )
}

/** One certificate and its review: under /api/v1/crew/certificates. */
export const certificateRoutes: ModulePlugin = (app, { db, config }) => {
  const review = reviewRouteOptions(tags, CertificateParams, 'Certificate')
  const item = (request: { params: { certificate_id: string } }) => target(request.params.certificate_id)

  app.get(
    '/:certificate_id',
    {
      schema: {
        operationId: 'getCertificate',
        summary: 'Get a certificate',
        description: "Crew reach only their own; another organization's certificate is 404.",
        tags,
        params: CertificateParams,
        response: { 200: Certificate },
      },
    },
    async (request) => {
      const { actor, params } = request
      const found = await findCertificate(db, actor.orgId, config.expiringSoonDays, params.certificate_id, rowOwner(actor))
      if (!found) throw notFound(LABEL)
      return found
    },
  )

  app.patch(
    '/:certificate_id',
    {
      config: { roles: RECORD_WRITERS },
      schema: {
        operationId: 'updateCertificate',
        summary: 'Update a certificate',
        description: "Crew change their own, admins and office admins anyone's. Only the fields sent change; a change to a verified or rejected certificate sends it back to review.",
        tags,
        params: CertificateParams,
        body: CertificateUpdate,
        response: { 200: Certificate },
      },
    },
    (request) => editCertificate(db, request.actor, request.params.certificate_id, request.body, config.expiringSoonDays),
  )

  app.delete(
    '/:certificate_id',
    {
      config: { roles: RECORD_WRITERS },
      schema: {
        operationId: 'deleteCertificate',
        summary: 'Delete a certificate',
        description: "Crew delete their own, admins and office admins anyone's.",
        tags,
        params: CertificateParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { actor } = request
      const wire = certificateWire(actor.orgId, config.expiringSoonDays)
      await removeReviewed(db, actor, 'certificates', item(request), LABEL, wire)
      return reply.status(204).send(null)
    },
  )

  app.post('/:certificate_id/submit', review.submit, (request) => submit(db, request.actor, item(request), LABEL))
  app.post('/:certificate_id/verify', review.verify, (request) => verify(db, request.actor, item(request), LABEL))
  app.post('/:certificate_id/reject', review.reject, (request) => reject(db, request.actor, item(request), LABEL, request.body.reason))
}
