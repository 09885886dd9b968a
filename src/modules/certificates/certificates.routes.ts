import { expiringRoutes } from '../verifications/expiring.routes.js'
import { certificates } from './certificates.schemas.js'

export const certificatesRoutes = expiringRoutes(certificates)
