import { type RawBuilder, sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { Actor } from '../../../lib/access.js'
import { changesSql, eventsInsert, wireJson } from '../../../lib/events.js'
import { uuidv7s } from '../../../lib/ids.js'
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

/** A matrix item in its wire shape as SQL over `alias`. */
const itemWire = (alias: string) =>
  wireJson({
    role: sql.ref(`${alias}.role`),
    documentTypes: sql.ref(`${alias}.document_types`),
    certificateTypes: sql.ref(`${alias}.certificate_types`),
    minSeaServiceDays: sql.ref(`${alias}.min_sea_service_days`),
  })

/** The matrix of the rows `from` as a JSON array, in position order. */
const matrixSql = (alias: string, from: RawBuilder<unknown>) =>
  sql`(select coalesce(jsonb_agg(${itemWire(alias)} order by ${sql.ref(`${alias}.position`)}), '[]'::jsonb) from ${from})`

/**
 * The whole matrix replaced, inside the caller's transaction: readers see the old one or the new one,
 * never a mix. The organization row is locked first so that two replacements take turns instead of
 * colliding, and the next statement's snapshot holds the matrix they left. That statement writes the
 * new items over the positions they take, deletes the positions beyond, and writes the
 * `requirements.updated` event (the matrix belongs to the organization: its event targets it,
 * DECISIONS §11), none when nothing changed.
 */
export async function replaceRequirements(trx: Db, actor: Actor, items: Matrix): Promise<void> {
  const orgId = actor.orgId
  await trx.selectFrom('organizations').select('id').where('id', '=', orgId).forNoKeyUpdate().execute()
  const rows = items.map((item, position) => ({
    position,
    role: item.role,
    document_types: item.documentTypes,
    certificate_types: item.certificateTypes,
    min_sea_service_days: item.minSeaServiceDays,
  }))
  const side = (matrix: RawBuilder<unknown>) => sql`jsonb_build_object('id', ${orgId}::text, 'items', ${matrix})`
  await trx
    .with('n', () =>
      sql`(select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as n(position int, role text, document_types text[], certificate_types text[], min_sea_service_days int))`,
    )
    .with('w', (qc) =>
      qc
        .insertInto('requirements')
        .columns(['organization_id', 'position', 'role', 'document_types', 'certificate_types', 'min_sea_service_days'])
        .expression(sql`select ${orgId}::uuid, position, role, document_types, certificate_types, min_sea_service_days from n`)
        .onConflict((oc) =>
          oc.columns(['organization_id', 'position']).doUpdateSet((eb) => ({
            role: eb.ref('excluded.role'),
            document_types: eb.ref('excluded.document_types'),
            certificate_types: eb.ref('excluded.certificate_types'),
            min_sea_service_days: eb.ref('excluded.min_sea_service_days'),
          })),
        )
        .returningAll(),
    )
    .with('d', (qc) =>
      qc.deleteFrom('requirements').where('organization_id', '=', orgId).where('position', '>=', items.length).returning('position'),
    )
    .with('audit', (qc) =>
      eventsInsert(
        qc,
        actor,
        'requirements.updated',
        'organization',
        sql`select ${orgId}::uuid as target_id, jsonb_build_object('changes', c.changes) as data
          from (select ${side(matrixSql('o', sql`requirements o where o.organization_id = ${orgId}::uuid`))} as before,
            ${side(matrixSql('w', sql`w`))} as after) m
          cross join lateral (select ${changesSql(sql.ref('m.before'), sql.ref('m.after'))} as changes) c where c.changes <> '{}'::jsonb`,
        uuidv7s(1),
      ),
    )
    .selectNoFrom(sql`(select count(*) from w) + (select count(*) from d)`.as('n'))
    .execute()
}
