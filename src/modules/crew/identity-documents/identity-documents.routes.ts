import { expiringRecordRoutes } from '../crew-records/expiring-records.routes.js'
import { IDENTITY_DOCUMENTS } from './identity-documents.schemas.js'

/** A user's identity documents and one document with its review (DECISIONS §3): the routes of every expiring record. */
const routes = expiringRecordRoutes(IDENTITY_DOCUMENTS)
export const userIdentityDocumentsRoutes = routes.user
export const identityDocumentRoutes = routes.item
