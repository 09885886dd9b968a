import type { Db } from '../../db/database.js'
import type { Requirements } from './requirements.schemas.js'

type Matrix = Requirements['items']

export async function listRequirements(db: Db, orgId: string): Promise<Matrix> {
  const rows = await db
    .selectFrom('requirements')
    .select(['role', 'document_types', 'certificate_types', 'min_sea_service_days'])
    .where('organization_id', '=', orgId)
    .orderBy('position')
    .execute()
  return rows.map((row) => ({
    role: row.role,
    documentTypes: row.document_types as Matrix[number]['documentTypes'],
    certificateTypes: row.certificate_types as Matrix[number]['certificateTypes'],
    minSeaServiceDays: row.min_sea_service_days,
  }))
}

/**
 * The whole matrix replaced, inside the caller's transaction: readers see the old one or the new one,
 * never a mix. The organization row is locked first so that two replacements take turns instead of
 * colliding. Returns the matrix it replaced.
 */
export async function replaceRequirements(trx: Db, orgId: string, items: Matrix): Promise<Matrix> {
  await trx.selectFrom('organizations').select('id').where('id', '=', orgId).forNoKeyUpdate().execute()
  const previous = await listRequirements(trx, orgId)
  await trx.deleteFrom('requirements').where('organization_id', '=', orgId).execute()
  if (items.length > 0) {
    await trx
      .insertInto('requirements')
      .values(
        items.map((item, position) => ({
          organization_id: orgId,
          position,
          role: item.role,
          document_types: item.documentTypes,
          certificate_types: item.certificateTypes,
          min_sea_service_days: item.minSeaServiceDays,
        })),
      )
      .execute()
  }
  return previous
}
