import { type Selectable, sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { Role, SsoSettingsTable } from '../../../db/schema.js'
import type { Actor } from '../../../lib/access.js'
import { changesSql, type EventSource, eventsInsert, objectRows, updatedRows, wireJson } from '../../../lib/events.js'
import { uuidv7s } from '../../../lib/ids.js'
import { userWire } from '../users/users.queries.js'
import type { SsoSettings } from './sso.schemas.js'

export type SsoRow = Selectable<SsoSettingsTable>

export const toSsoSettings = (row: SsoRow): SsoSettings => ({
  issuer: row.issuer,
  clientId: row.client_id,
  audience: row.audience,
  roleClaim: row.role_claim,
  roleMap: row.role_map,
  defaultRole: row.default_role,
  enforce: row.enforce,
  redirectUris: row.redirect_uris,
  hasClientSecret: row.client_secret !== null,
})

export interface SsoColumns {
  issuer: string
  client_id: string
  audience: string | null
  role_claim: string | null
  role_map: Record<string, Role>
  default_role: Role
  enforce: boolean
  redirect_uris: string[]
  /** Omitted: the stored secret is kept. */
  client_secret?: string | null
}

export function findSettings(db: Db, orgId: string): Promise<SsoRow | undefined> {
  return db.selectFrom('sso_settings').selectAll().where('organization_id', '=', orgId).executeTakeFirst()
}

/** The settings as GET shows them (the client secret only as `hasClientSecret`) as SQL over `alias`. */
const settingsWire = (alias: string) =>
  wireJson({
    issuer: sql.ref(`${alias}.issuer`),
    clientId: sql.ref(`${alias}.client_id`),
    audience: sql.ref(`${alias}.audience`),
    roleClaim: sql.ref(`${alias}.role_claim`),
    roleMap: sql.ref(`${alias}.role_map`),
    defaultRole: sql.ref(`${alias}.default_role`),
    enforce: sql.ref(`${alias}.enforce`),
    redirectUris: sql.ref(`${alias}.redirect_uris`),
    hasClientSecret: sql`${sql.ref(`${alias}.client_secret`)} is not null`,
  })

/**
 * The event of a change to the settings, from `o` (the row before, if any) to `a` (the row after, if
 * any): `organization.updated` with `changes.sso`, null when single sign-on is off; none when nothing changed.
 */
function ssoChanged(orgId: string) {
  const side = (alias: string) =>
    sql`jsonb_build_object('id', ${orgId}::text, 'sso', (select ${settingsWire(alias)} from ${sql.table(alias)}))`
  return sql<{ target_id: string; data: unknown }>`select ${orgId}::uuid as target_id, jsonb_build_object('changes', c.changes) as data
    from (select ${side('o')} as before, ${side('a')} as after) w
    cross join lateral (select ${changesSql(sql.ref('w.before'), sql.ref('w.after'))} as changes) c where c.changes <> '{}'::jsonb`
}

/** Sets up or changes the settings, with their event in the same statement. */
export function saveSettings(db: Db, actor: Actor, columns: SsoColumns): Promise<SsoRow> {
  const values = { ...columns, role_map: JSON.stringify(columns.role_map) }
  return db
    .with('o', (qc) => qc.selectFrom('sso_settings').selectAll().where('organization_id', '=', actor.orgId))
    .with('a', (qc) =>
      qc
        .insertInto('sso_settings')
        .values({ organization_id: actor.orgId, ...values })
        .onConflict((oc) => oc.column('organization_id').doUpdateSet({ ...values, updated_at: new Date() }))
        .returningAll(),
    )
    .with('audit', (qc) => eventsInsert(qc, actor, 'organization.updated', 'organization', ssoChanged(actor.orgId), uuidv7s(1)))
    .selectFrom('a')
    .selectAll()
    .executeTakeFirstOrThrow()
}

/** Turns single sign-on off, with its event in the same statement (none when it was off). */
export async function deleteSettings(db: Db, actor: Actor): Promise<void> {
  await db
    .with('o', (qc) => qc.deleteFrom('sso_settings').where('organization_id', '=', actor.orgId).returningAll())
    .with('a', (qc) => qc.selectFrom('sso_settings').selectAll().where(sql<boolean>`false`))
    .with('audit', (qc) => eventsInsert(qc, actor, 'organization.updated', 'organization', ssoChanged(actor.orgId), uuidv7s(1)))
    .selectFrom('o')
    .select('o.organization_id')
    .execute()
}

/** The organizations that trust an issuer: the token exchange starts from the token, not from a caller. */
export function settingsByIssuer(db: Db, issuer: string): Promise<SsoRow[]> {
  return db.selectFrom('sso_settings').selectAll().where('issuer', '=', issuer).execute()
}

/** The single-sign-on settings of the organization with that domain (case-insensitive). */
export function settingsByDomain(db: Db, domain: string): Promise<SsoRow[]> {
  return db
    .selectFrom('sso_settings')
    .innerJoin('organizations', 'organizations.id', 'sso_settings.organization_id')
    .selectAll('sso_settings')
    .where(sql`lower(organizations.domain)`, '=', domain.toLowerCase())
    .limit(2)
    .execute()
}

export interface LoginState {
  state: string
  organization_id: string
  nonce: string
  code_verifier: string
  redirect_uri: string
}

export async function insertLoginState(
  db: Db,
  orgId: string,
  login: Omit<LoginState, 'organization_id'>,
  ttlSeconds: number,
): Promise<void> {
  // Abandoned sign-ins are trimmed here, so the table stays small without a job.
  await db.deleteFrom('sso_login_states').where('expires_at', '<', new Date()).execute()
  await db
    .insertInto('sso_login_states')
    .values({ ...login, organization_id: orgId, expires_at: new Date(Date.now() + ttlSeconds * 1000) })
    .execute()
}

/** Single use: the state is deleted as it is read, so a replayed callback finds nothing. */
export function takeLoginState(db: Db, state: string): Promise<LoginState | undefined> {
  return db
    .deleteFrom('sso_login_states')
    .where('state', '=', state)
    .where('expires_at', '>', new Date())
    .returning(['state', 'organization_id', 'nonce', 'code_verifier', 'redirect_uri'])
    .executeTakeFirst()
}

/** The user of an e-mail in any organization (e-mails are unique across the service). */
export function userByEmail(db: Db, email: string) {
  return db
    .selectFrom('users')
    .innerJoin('organizations', 'organizations.id', 'users.organization_id')
    .select(['users.id', 'users.organization_id', 'users.role', 'users.state', 'organizations.products'])
    .where(sql`lower(users.email)`, '=', email.toLowerCase())
    .executeTakeFirst()
}

export interface SsoUser {
  id: string
  email: string
  firstName: string
  lastName: string
  role: Role
}

/**
 * A user created at first sign-in: active, without a password, with the `user.created` event in the
 * same statement. Nothing when the e-mail was taken meanwhile.
 */
export async function insertSsoUser(db: Db, source: EventSource, user: SsoUser): Promise<void> {
  await db
    .with('a', (qc) =>
      qc
        .insertInto('users')
        .values({
          id: user.id,
          organization_id: source.orgId,
          email: user.email,
          first_name: user.firstName,
          last_name: user.lastName,
          role: user.role,
          state: 'active',
          password_hash: null,
        })
        .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
        .returningAll(),
    )
    .with('audit', (qc) => eventsInsert(qc, source, 'user.created', 'user', objectRows(userWire('a'), 'a'), uuidv7s(1)))
    .selectFrom('a')
    .select('a.id')
    .execute()
}

/**
 * A pending user has proven who they are through the organization's identity provider: active, with
 * the `user.updated` event of that change in the same statement (the user acting). Nothing when no longer pending.
 */
export async function activatePendingUser(db: Db, source: EventSource & { actor: { userId: string } }): Promise<void> {
  const { orgId, actor } = source
  await db
    .with('o', (qc) => qc.selectFrom('users').selectAll().where('organization_id', '=', orgId).where('id', '=', actor.userId))
    .with('a', (qc) =>
      qc
        .updateTable('users')
        .set({ state: 'active', updated_at: new Date() })
        .where('organization_id', '=', orgId)
        .where('id', '=', actor.userId)
        .where('state', '=', 'pending')
        .returningAll(),
    )
    .with('audit', (qc) =>
      eventsInsert(
        qc,
        source,
        'user.updated',
        'user',
        updatedRows((alias) => ({ state: sql.ref(`${alias}.state`) })),
        uuidv7s(1),
      ),
    )
    .selectFrom('a')
    .select('a.id')
    .execute()
}

/** True when the user's organization enforces single sign-on and they are not its break-glass admin. */
export async function mustUseSso(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .innerJoin('sso_settings', 'sso_settings.organization_id', 'users.organization_id')
    .select('users.id')
    .where('users.id', '=', userId)
    .where('sso_settings.enforce', '=', true)
    .where((eb) => eb.not(eb.and([eb('users.break_glass', '=', true), eb('users.role', '=', 'admin')])))
    .executeTakeFirst()
  return row !== undefined
}
