import { type Selectable, sql } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { Db } from '../../../db/database.js'
import type { Role, UserState, UsersTable } from '../../../db/schema.js'
import type { Actor } from '../../../lib/access.js'
import { definedOnly } from '../../../lib/columns.js'
import { iso, isoOrNull, isoSql } from '../../../lib/dates.js'
import { conflictOnDuplicate } from '../../../lib/db-errors.js'
import { changesSql, type EventSource, type EventType, eventsInsert, objectRows, typedEventsInsert, wireJson } from '../../../lib/events.js'
import { uuidv7s } from '../../../lib/ids.js'
import { newestFirstPage } from '../../../lib/pagination.js'
import { containsPattern } from '../../../lib/search.js'
import type { User, UserListQuery } from './users.schemas.js'

type UserRow = Selectable<UsersTable>

export const toUser = (row: UserRow): User => ({
  id: row.id,
  organizationId: row.organization_id,
  email: row.email,
  firstName: row.first_name,
  lastName: row.last_name,
  role: row.role,
  state: row.state,
  lastLogin: isoOrNull(row.last_login),
  createdAt: iso(row.created_at),
})

const uniqueEmail = <T>(write: Promise<T>) => conflictOnDuplicate(write, 'A user with this email already exists')

export interface NewUser {
  email: string
  firstName: string
  lastName: string
  role: Role
  passwordHash: string | null
  /** The admin made by `org create`: keeps password login when single sign-on is enforced. */
  breakGlass?: boolean
}

const userValues = (orgId: string, user: NewUser) => ({
  id: uuidv7(),
  organization_id: orgId,
  email: user.email,
  first_name: user.firstName,
  last_name: user.lastName,
  role: user.role,
  state: user.passwordHash ? ('active' as const) : ('pending' as const),
  password_hash: user.passwordHash,
  break_glass: user.breakGlass ?? false,
})

/** A user without an event, made with an organization: its first admin, the demo crew. */
export function insertUser(db: Db, orgId: string, user: NewUser): Promise<UserRow> {
  return uniqueEmail(db.insertInto('users').values(userValues(orgId, user)).returningAll().executeTakeFirstOrThrow())
}

/** A user in its wire shape as SQL over `alias`, for the events the statements below write. */
export const userWire = (alias: string) => ({
  id: sql.ref(`${alias}.id`),
  organizationId: sql.ref(`${alias}.organization_id`),
  email: sql.ref(`${alias}.email`),
  firstName: sql.ref(`${alias}.first_name`),
  lastName: sql.ref(`${alias}.last_name`),
  role: sql.ref(`${alias}.role`),
  state: sql.ref(`${alias}.state`),
  lastLogin: isoSql(sql.ref(`${alias}.last_login`)),
  createdAt: isoSql(sql.ref(`${alias}.created_at`)),
})

/** Creates the user and their `user.created` event in one statement. */
export async function createUser(db: Db, source: EventSource | Actor, user: NewUser): Promise<User> {
  const row = await uniqueEmail(
    db
      .with('a', (qc) => qc.insertInto('users').values(userValues(source.orgId, user)).returningAll())
      .with('audit', (qc) => eventsInsert(qc, source, 'user.created', 'user', objectRows(userWire('a'), 'a'), uuidv7s(1)))
      .selectFrom('a')
      .selectAll()
      .executeTakeFirstOrThrow(),
  )
  return toUser(row)
}

/** The invitation of a user created without a password: its link's id, token hash and lifetime. */
export interface NewInvitation {
  linkId: string
  hash: string
  ttlHours: number
}

/**
 * Creates a pending user with their invitation link (DECISIONS §15) and the events `user.created`
 * and `user.invited` in one statement; the user and the link's expiry.
 */
export async function createInvitedUser(db: Db, source: EventSource | Actor, user: NewUser, invitation: NewInvitation) {
  const { orgId } = source
  const row = await uniqueEmail(
    db
      .with('a', (qc) => qc.insertInto('users').values(userValues(orgId, user)).returningAll())
      .with('link', (qc) =>
        qc
          .insertInto('account_links')
          .columns(['id', 'organization_id', 'user_id', 'purpose', 'token_hash', 'expires_at'])
          .expression((eb) =>
            eb
              .selectFrom('a')
              .select([
                sql<string>`${invitation.linkId}::uuid`.as('id'),
                'a.organization_id',
                'a.id',
                sql<string>`'invitation'::text`.as('purpose'),
                sql<string>`${invitation.hash}::text`.as('token_hash'),
                sql<Date>`date_trunc('milliseconds', clock_timestamp() + make_interval(hours => ${invitation.ttlHours}))`.as('expires_at'),
              ]),
          )
          .returning(['user_id', 'expires_at']),
      )
      .with('audit', (qc) =>
        // One INSERT, rows in this order: the creation comes before the invitation in the trail.
        typedEventsInsert(
          qc,
          source,
          'user',
          sql`select 'user.created' as type, c.target_id, c.data from (${objectRows(userWire('a'), 'a')}) c
            union all
            select 'user.invited', link.user_id, jsonb_build_object('expiresAt', ${isoSql(sql.ref('link.expires_at'))}) from link`,
          uuidv7s(2),
        ),
      )
      .selectFrom('a')
      .innerJoin('link', 'link.user_id', 'a.id')
      .selectAll('a')
      .select('link.expires_at')
      .executeTakeFirstOrThrow(),
  )
  return { user: toUser(row), expiresAt: row.expires_at }
}

export function findUser(db: Db, orgId: string, userId: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('organization_id', '=', orgId).where('id', '=', userId).executeTakeFirst()
}

export function listUsers(db: Db, orgId: string, query: UserListQuery, onlyUserId?: string) {
  let filtered = db.selectFrom('users').where('organization_id', '=', orgId)
  if (onlyUserId) filtered = filtered.where('id', '=', onlyUserId)
  if (query.role) filtered = filtered.where('role', '=', query.role)
  if (query.state) filtered = filtered.where('state', '=', query.state)
  if (query.search) {
    const pattern = containsPattern(query.search)
    filtered = filtered.where((eb) => eb.or([eb('email', 'ilike', pattern), eb(sql`first_name || ' ' || last_name`, 'ilike', pattern)]))
  }
  return newestFirstPage(filtered, (qb) => qb.selectAll(), 'users', query, toUser)
}

/** The columns a change to a user sets: the request's fields, a new password's hash, and the state. */
export interface UserChange {
  email?: string
  firstName?: string
  lastName?: string
  role?: Role
  state?: UserState
  passwordHash?: string
}

/**
 * The state a change leaves, as SQL over the stored row where it depends on it: setting a password
 * lets a pending user log in; restoring a user who never had a password brings them back as pending.
 */
function stateAfter(change: UserChange) {
  if (change.state === 'active' && !change.passwordHash)
    return sql<UserState>`case when password_hash is null then 'pending' else 'active' end`
  if (change.state) return change.state
  if (change.passwordHash) return sql<UserState>`case when state = 'pending' then 'active' else state end`
  return undefined
}

/**
 * The events of a change to a user, in this order: its field changes but the state as
 * `user.updated`, flagged `passwordSet` (never carried) when it sets one; then a move of the state:
 * to `suspended` is `user.suspended`, back from it `user.restored`, any other `user.updated`.
 */
function userEventRows(passwordSet: boolean) {
  const { state: _, ...after } = userWire('a')
  const { state: __, ...before } = userWire('o')
  const [data, written] = passwordSet
    ? [sql`jsonb_build_object('changes', c.changes, 'passwordSet', true)`, sql`true`]
    : [sql`jsonb_build_object('changes', c.changes)`, sql`c.changes <> '{}'::jsonb`]
  return sql<{ type: EventType; target_id: string; data: unknown }>`select 'user.updated' as type, a.id as target_id, ${data} as data
      from a join o on o.id = a.id
      cross join lateral (select ${wireJson(before)} as before, ${wireJson(after)} as after) w
      cross join lateral (select ${changesSql(sql.ref('w.before'), sql.ref('w.after'))} as changes) c where ${written}
    union all
    select case when a.state = 'suspended' then 'user.suspended' when o.state = 'suspended' then 'user.restored' else 'user.updated' end,
      a.id, jsonb_build_object('changes', jsonb_build_object('state', jsonb_build_array(o.state, a.state)))
      from a join o on o.id = a.id where o.state <> a.state`
}

/**
 * Changes a user and writes the events of the change in one statement; undefined when there is none.
 * `o` locks the row, so it is the version the update replaces.
 */
export async function updateUser(db: Db, source: EventSource | Actor, userId: string, change: UserChange): Promise<User | undefined> {
  const { orgId } = source
  const set = definedOnly({
    email: change.email,
    first_name: change.firstName,
    last_name: change.lastName,
    role: change.role,
    state: stateAfter(change),
    password_hash: change.passwordHash,
  })
  if (Object.keys(set).length === 0) {
    const row = await findUser(db, orgId, userId)
    return row && toUser(row)
  }
  const row = await uniqueEmail(
    db
      .with('o', (qc) => qc.selectFrom('users').selectAll().where('organization_id', '=', orgId).where('id', '=', userId).forUpdate())
      .with('a', (qc) =>
        qc
          .updateTable('users')
          .set({ ...set, updated_at: new Date() })
          .where('id', 'in', qc.selectFrom('o').select('o.id'))
          .returningAll(),
      )
      .with('audit', (qc) => typedEventsInsert(qc, source, 'user', userEventRows(change.passwordHash !== undefined), uuidv7s(2)))
      .selectFrom('a')
      .selectAll()
      .executeTakeFirst(),
  )
  return row && toUser(row)
}

/** Login looks the e-mail up across organizations: it is unique service-wide. */
export function findUserByEmail(db: Db, email: string) {
  return db
    .selectFrom('users')
    .innerJoin('organizations', 'organizations.id', 'users.organization_id')
    .select(['users.id', 'users.organization_id', 'users.role', 'users.state', 'users.password_hash', 'users.tokens_valid_after', 'organizations.products'])
    .where(sql`lower(users.email)`, '=', email.toLowerCase())
    .executeTakeFirst()
}

export async function recordLogin(db: Db, userId: string): Promise<void> {
  await db.updateTable('users').set({ last_login: new Date() }).where('id', '=', userId).execute()
}

export function findOrganization(db: Db, orgId: string) {
  return db.selectFrom('organizations').select(['id', 'name', 'domain']).where('id', '=', orgId).executeTakeFirstOrThrow()
}

/**
 * Sets a user's password by e-mail, found case-insensitively across organizations (the operator's
 * reset, `seaworthy user reset-password`). A pending user becomes active; a suspended one stays so.
 */
export function setPasswordByEmail(db: Db, email: string, passwordHash: string) {
  return db
    .updateTable('users')
    .set({
      password_hash: passwordHash,
      state: sql<UserState>`case when state = 'pending' then 'active' else state end`,
      updated_at: new Date(),
    })
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .returning(['id', 'email', 'state'])
    .executeTakeFirst()
}
