import type { Selectable } from 'kysely'
import type { Db } from '../../db/database.js'
import type { CertificatesTable } from '../../db/schema.js'
import { fieldsOf } from '../../lib/columns.js'
import { type ExpiringRow, expiringById, expiringOfUser, expiringWireSql, toExpiringFields } from '../crew-records/crew-records.queries.js'
import type { ExpiryListQuery } from '../crew-records/crew-records.schemas.js'
import { type InsertOutcome, type NewReviewed, reviewedInsert } from '../crew-records/reviewed-writes.queries.js'
import { CERTIFICATE_COLUMNS, type Certificate } from './certificates.schemas.js'

const toCertificate = (row: ExpiringRow & Selectable<CertificatesTable>): Certificate => ({
  ...toExpiringFields(row),
  certificateType: row.certificate_type,
  ...fieldsOf(CERTIFICATE_COLUMNS, row),
})

/** A certificate as the client receives it, over its row and its verification's (DECISIONS §11's data). */
export const certificateWire = (orgId: string, days: number) =>
  expiringWireSql('certificates', { certificateType: 'certificate_type', ...CERTIFICATE_COLUMNS }, orgId, days)

export async function listCertificates(db: Db, orgId: string, days: number, userId: string, query?: ExpiryListQuery) {
  const rows = await expiringOfUser(db, 'certificates', orgId, days, userId, query).selectAll('certificates').execute()
  return rows.map(toCertificate)
}

export async function findCertificate(db: Db, orgId: string, days: number, id: string, ownerId?: string) {
  const row = await expiringById(db, 'certificates', orgId, days, id, ownerId).selectAll('certificates').executeTakeFirst()
  return row && toCertificate(row)
}

const insert = reviewedInsert('certificates', 'certificate.created', (p) => certificateWire(p.orgId, p.days!))

/** Creates a certificate, its verification and its `certificate.created` event in one statement (`reviewedInsert`). */
export async function insertCertificate(
  db: Db,
  orgId: string,
  days: number,
  certificate: NewReviewed<'certificates'>,
): Promise<InsertOutcome<Certificate>> {
  const outcome = await insert(db, { orgId, record: certificate, days })
  if (outcome.found !== 'created') return outcome
  return { found: 'created', row: toCertificate(outcome.row as ExpiringRow & Selectable<CertificatesTable>) }
}
