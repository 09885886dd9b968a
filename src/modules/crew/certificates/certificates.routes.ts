import { expiringRecordRoutes } from '../crew-records/expiring-records.routes.js'
import { CERTIFICATES } from './certificates.schemas.js'

/** A user's certificates and one certificate with its review (DECISIONS §3): the routes of every expiring record. */
const routes = expiringRecordRoutes(CERTIFICATES)
export const userCertificatesRoutes = routes.user
export const certificateRoutes = routes.item
