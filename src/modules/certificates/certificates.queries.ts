import type { Insertable, Selectable } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { Db } from '../../db/database.js'
import type { CertificatesTable } from '../../db/schema.js'
import { fieldsOf } from '../../lib/columns.js'
import { crewRecordById, type ExpiringRow, expiringById, expiringOfUser, toExpiringFields } from '../crew-records/crew-records.queries.js'
import type { ExpiryStatus } from '../crew-records/crew-records.schemas.js'
import { CERTIFICATE_COLUMNS, type Certificate } from './certificates.schemas.js'

const toCertificate = (row: ExpiringRow & Selectable<CertificatesTable>): Certificate => ({
  ...toExpiringFields(row),
  certificateType: row.certificate_type,
  ...fieldsOf(CERTIFICATE_COLUMNS, row),
})

export async function listCertificates(db: Db, orgId: string, days: number, userId: string, status?: ExpiryStatus) {
  const rows = await expiringOfUser(db, 'certificates', orgId, days, userId, status).selectAll('certificates').execute()
  return rows.map(toCertificate)
}

export async function findCertificate(db: Db, orgId: string, days: number, id: string, ownerId?: string) {
  const row = await expiringById(db, 'certificates', orgId, days, id, ownerId).selectAll('certificates').executeTakeFirst()
  return row && toCertificate(row)
}

export type CertificateColumns = Omit<Insertable<CertificatesTable>, 'id' | 'organization_id' | 'user_id'>

export async function insertCertificate(trx: Db, orgId: string, userId: string, columns: CertificateColumns): Promise<string> {
  const id = uuidv7()
  await trx
    .insertInto('certificates')
    .values({ ...columns, id, organization_id: orgId, user_id: userId })
    .execute()
  return id
}

/** One certificate, locked until the transaction ends; `ownerId` narrows it to that user's (crew). */
export const lockCertificate = (trx: Db, orgId: string, id: string, ownerId?: string) =>
  crewRecordById(trx, 'certificates', orgId, id, ownerId).selectAll('certificates').forUpdate().executeTakeFirst()
