import { type RawBuilder, sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { Actor } from '../../../lib/access.js'
import { eventsInsert, updatedRows } from '../../../lib/events.js'
import { uuidv7s } from '../../../lib/ids.js'
import { SettingsUpdate } from './organizations.schemas.js'
import { DEFAULT_HORIZON_DAYS, DEFAULT_NOTIFICATION_DAYS, PER_TYPE_MAPS } from './settings.js'

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

/** The organization in its wire shape as SQL over `alias`, its settings with the defaults filled in as `withDefaults` does. */
const organizationWire = (defaultWindowDays: number) => (alias: string) => {
  const setting = (key: string, fallback: unknown) =>
    sql`coalesce(${sql.ref(`${alias}.settings`)} -> ${key}::text, ${JSON.stringify(fallback)}::jsonb)`
  return {
    id: sql.ref(`${alias}.id`),
    name: sql.ref(`${alias}.name`),
    domain: sql.ref(`${alias}.domain`),
    products: sql.ref(`${alias}.products`),
    settings: sql`jsonb_build_object(
      'defaultExpiryWindowDays', ${setting('defaultExpiryWindowDays', defaultWindowDays)},
      'expiryWindowDays', ${setting('expiryWindowDays', {})},
      'validityMarginDays', ${setting('validityMarginDays', {})},
      'openEndedHorizonDays', ${setting('openEndedHorizonDays', DEFAULT_HORIZON_DAYS)},
      'expiryNotificationDays', ${setting('expiryNotificationDays', DEFAULT_NOTIFICATION_DAYS)})`,
  }
}

/**
 * Updates the name and settings, with the `organization.updated` event in the same statement (none
 * when nothing changed). The row is locked first, in a statement of its own, so that the next one's
 * snapshot holds every change committed before: the event's "before" is the state this PATCH changes.
 */
export async function updateOrganization(
  db: Db,
  actor: Actor,
  changes: { name?: string; settings?: SettingsUpdate },
  defaultWindowDays: number,
) {
  if (changes.name === undefined && changes.settings === undefined) return (await findOrganization(db, actor.orgId))!
  return db.transaction().execute(async (trx) => {
    await findOrganization(trx, actor.orgId, true)
    return trx
      .with('o', (qc) => qc.selectFrom('organizations').selectAll().where('id', '=', actor.orgId))
      .with('a', (qc) =>
        qc
          .updateTable('organizations')
          .set({
            ...(changes.name === undefined ? {} : { name: changes.name }),
            ...(changes.settings === undefined ? {} : { settings: mergedSettings(changes.settings) }),
          })
          .where('id', '=', actor.orgId)
          .returningAll(),
      )
      .with('audit', (qc) =>
        eventsInsert(qc, actor, 'organization.updated', 'organization', updatedRows(organizationWire(defaultWindowDays)), uuidv7s(1)),
      )
      .selectFrom('a')
      .select(COLUMNS)
      .executeTakeFirstOrThrow()
  })
}
