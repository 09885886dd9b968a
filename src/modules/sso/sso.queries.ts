import { type Selectable, sql } from 'kysely'
import type { Db } from '../../db/database.js'
import type { Role, SsoSettingsTable } from '../../db/schema.js'
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

export function saveSettings(db: Db, orgId: string, columns: SsoColumns): Promise<SsoRow> {
  const values = { ...columns, role_map: JSON.stringify(columns.role_map) }
  return db
    .insertInto('sso_settings')
    .values({ organization_id: orgId, ...values })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet({ ...values, updated_at: new Date() }))
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function deleteSettings(db: Db, orgId: string): Promise<void> {
  await db.deleteFrom('sso_settings').where('organization_id', '=', orgId).execute()
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

/** A user created at first sign-in: active, without a password. Undefined when the e-mail was taken meanwhile. */
export function insertSsoUser(db: Db, orgId: string, user: SsoUser) {
  return db
    .insertInto('users')
    .values({
      id: user.id,
      organization_id: orgId,
      email: user.email,
      first_name: user.firstName,
      last_name: user.lastName,
      role: user.role,
      state: 'active',
      password_hash: null,
    })
    .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
    .returningAll()
    .executeTakeFirst()
}

/** A pending user has proven who they are through the organization's identity provider. Undefined when no longer pending. */
export function activatePendingUser(db: Db, orgId: string, userId: string) {
  return db
    .updateTable('users')
    .set({ state: 'active', updated_at: new Date() })
    .where('organization_id', '=', orgId)
    .where('id', '=', userId)
    .where('state', '=', 'pending')
    .returningAll()
    .executeTakeFirst()
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
