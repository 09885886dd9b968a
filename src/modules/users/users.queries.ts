import { type Selectable, sql } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { Db } from '../../db/database.js'
import type { Role, UserState, UsersTable } from '../../db/schema.js'
import { iso, isoOrNull } from '../../lib/dates.js'
import { isUniqueViolation } from '../../lib/db-errors.js'
import { conflict } from '../../lib/errors.js'
import { newestFirstPage } from '../../lib/pagination.js'
import { containsPattern } from '../../lib/search.js'
import { activeOn } from '../assignments/assignments.queries.js'
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

const duplicateEmail = () => conflict('A user with this email already exists')

export interface NewUser {
  email: string
  firstName: string
  lastName: string
  role: Role
  passwordHash: string | null
  /** The admin made by `org create`: keeps password login when single sign-on is enforced. */
  breakGlass?: boolean
}

export async function insertUser(db: Db, orgId: string, user: NewUser): Promise<UserRow> {
  try {
    return await db
      .insertInto('users')
      .values({
        id: uuidv7(),
        organization_id: orgId,
        email: user.email,
        first_name: user.firstName,
        last_name: user.lastName,
        role: user.role,
        state: user.passwordHash ? 'active' : 'pending',
        password_hash: user.passwordHash,
        break_glass: user.breakGlass ?? false,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateEmail()
    throw error
  }
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

export interface UserChanges {
  email?: string
  first_name?: string
  last_name?: string
  role?: Role
  state?: UserState
  password_hash?: string
}

export async function updateUser(db: Db, orgId: string, userId: string, changes: UserChanges): Promise<UserRow | undefined> {
  if (Object.keys(changes).length === 0) return findUser(db, orgId, userId)
  try {
    return await db
      .updateTable('users')
      .set({ ...changes, updated_at: new Date() })
      .where('organization_id', '=', orgId)
      .where('id', '=', userId)
      .returningAll()
      .executeTakeFirst()
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateEmail()
    throw error
  }
}

/** Login looks the e-mail up across organizations: it is unique service-wide. */
export function findUserByEmail(db: Db, email: string) {
  return db
    .selectFrom('users')
    .innerJoin('organizations', 'organizations.id', 'users.organization_id')
    .select(['users.id', 'users.organization_id', 'users.role', 'users.state', 'users.password_hash', 'organizations.products'])
    .where(sql`lower(users.email)`, '=', email.toLowerCase())
    .executeTakeFirst()
}

export async function recordLogin(db: Db, userId: string): Promise<void> {
  await db.updateTable('users').set({ last_login: new Date() }).where('id', '=', userId).execute()
}

export function currentUserAssignments(db: Db, orgId: string, userId: string) {
  return db
    .selectFrom('assignments')
    .innerJoin('ships', 'ships.id', 'assignments.ship_id')
    .select([
      'assignments.id',
      'ships.name as shipName',
      'ships.imo_number as shipImoNumber',
      'assignments.role',
      'assignments.start_date as startDate',
      'assignments.due_date as dueDate',
      'assignments.end_date as endDate',
      activeOn('assignments').as('isActive'),
    ])
    .where('assignments.organization_id', '=', orgId)
    .where('assignments.user_id', '=', userId)
    .orderBy('assignments.created_at', 'desc')
    .execute()
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
