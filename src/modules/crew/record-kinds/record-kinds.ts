import { CERTIFICATES } from './certificates.js'
import { IDENTITY_DOCUMENTS } from './identity-documents.js'

/**
 * Every kind of expiring crew record. A kind is its descriptor in this folder and its line here; its
 * routes, rules and SQL are written once in reviewed-records/, and the wiring table mounts each kind
 * (modules/index.ts). Its table, and its place in the database rules, come with its migration.
 */
export const RECORD_KINDS = [IDENTITY_DOCUMENTS, CERTIFICATES]
