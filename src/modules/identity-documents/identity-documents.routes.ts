import { expiringRoutes } from '../verifications/expiring.routes.js'
import { identityDocuments } from './identity-documents.schemas.js'

export const identityDocumentsRoutes = expiringRoutes(identityDocuments)
