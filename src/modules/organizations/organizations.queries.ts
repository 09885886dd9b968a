import { type RawBuilder, sql } from 'kysely'
import type { Db } from '../../db/database.js'
import { SettingsUpdate } from './organizations.schemas.js'
import { PER_TYPE_MAPS } from './settings.js'

const COLUMNS = ['id', 'name', 'domain', 'products', 'settings'] as const

/** `lock`: until the transaction ends, so the state before a change is the one it changes. */
export function findOrganization(db: Db, orgId: string, lock = false) {
  return db
    .selectFrom('organizations')
    .select(COLUMNS)
    .where('id', '=', orgId)
    .$if(lock, (qb) => qb.forNoKeyUpdate())
    .executeTakeFirst()
}

/**
 * The stored settings with a PATCH merged in, in one expression (so concurrent PATCHes of different keys
 * both land): sent keys replace, the per-type maps merge entry by entry, and a null anywhere removes
 * that key or entry (jsonb_strip_nulls), which brings back its default. Keys the schema does not
 * declare are ignored (DECISIONS §1), never stored.
 */
function mergedSettings(patch: SettingsUpdate): RawBuilder<string> {
  const entries = Object.entries(patch)
    .filter(([key, value]) => value !== undefined && Object.hasOwn(SettingsUpdate.properties, key))
    .map(([key, value]) => {
      const json = JSON.stringify(value)
      const merged = (PER_TYPE_MAPS as readonly string[]).includes(key) && value !== null
      return merged ? sql`${key}::text, coalesce(settings->${key}::text, '{}'::jsonb) || ${json}::jsonb` : sql`${key}::text, ${json}::jsonb`
    })
  if (entries.length === 0) return sql<string>`settings`
  return sql<string>`jsonb_strip_nulls(settings || jsonb_build_object(${sql.join(entries)}))`
}

export async function updateOrganization(db: Db, orgId: string, changes: { name?: string; settings?: SettingsUpdate }) {
  if (changes.name === undefined && changes.settings === undefined) return (await findOrganization(db, orgId))!
  return db
    .updateTable('organizations')
    .set({
      ...(changes.name === undefined ? {} : { name: changes.name }),
      ...(changes.settings === undefined ? {} : { settings: mergedSettings(changes.settings) }),
    })
    .where('id', '=', orgId)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow()
}
