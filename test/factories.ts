import { randomUUID } from 'node:crypto'
import { v7 as uuidv7 } from 'uuid'
import { beforeAll } from 'vitest'
import type { App } from '../src/app.js'
import type { Db } from '../src/db/database.js'
import type { Product, Role } from '../src/db/schema.js'
import { createTokens, hashPassword } from '../src/lib/auth.js'
import { insertUser } from '../src/modules/accounts/users/users.queries.js'
import { type Client, client, TEST_SECRET, type TestApp } from './app.js'

export const PASSWORD = 'correct horse battery'
let passwordHash: Promise<string> | undefined
const tokens = createTokens(TEST_SECRET, 3600)

export interface TestUser {
  id: string
  email: string
  role: Role
  token: string
  api: Client
}

export interface TestOrg {
  id: string
  admin: TestUser
  officeAdmin: TestUser
  officeEmployee: TestUser
  crew: TestUser
  /** Another user of the same organization. */
  addUser(role: Role, fields?: { firstName?: string; lastName?: string }): Promise<TestUser>
}

/** A fresh organization with one user of each role: every test owns its own. */
export async function createOrg(app: App, db: Db, options: { products?: Product[]; name?: string } = {}): Promise<TestOrg> {
  const id = uuidv7()
  const products = options.products ?? ['learn', 'crew']
  await db
    .insertInto('organizations')
    .values({ id, name: options.name ?? `Org ${id.slice(-6)}`, domain: null, products })
    .execute()
  passwordHash ??= hashPassword(PASSWORD)
  const hash = await passwordHash
  const addUser = async (role: Role, fields: { firstName?: string; lastName?: string } = {}): Promise<TestUser> => {
    const email = `${role}-${randomUUID()}@example.test`
    const row = await insertUser(db, id, {
      email,
      firstName: fields.firstName ?? 'Test',
      lastName: fields.lastName ?? role,
      role,
      passwordHash: hash,
    })
    // A sign-in of its own that no refresh token names: nothing revokes it.
    const { token } = await tokens.issue({ sub: row.id, org: id, role, products, sid: uuidv7() })
    return { id: row.id, email, role, token, api: client(app, token) }
  }
  const [admin, officeAdmin, officeEmployee, crew] = await Promise.all([
    addUser('admin'),
    addUser('office_admin'),
    addUser('office_employee'),
    addUser('crew'),
  ])
  return { id, admin, officeAdmin, officeEmployee, crew, addUser }
}

/** The test file's own organization, filled in by a beforeAll (declare it after useTestApp). */
export function useOrg(t: TestApp, options: { products?: Product[]; name?: string } = {}): TestOrg {
  const org = {} as TestOrg
  beforeAll(async () => {
    Object.assign(org, await createOrg(t.app, t.database.db, options))
  })
  return org
}

/** Valid IMO numbers (check digit correct), distinct per call. */
let imoCounter = 100000
export function nextImo(): string {
  const base = String(imoCounter++).padStart(6, '0')
  const check = [...base].reduce((acc, d, i) => acc + Number(d) * (7 - i), 0) % 10
  return `${base}${check}`
}

/** A course written straight to the database, for tests that are not about the course endpoints. */
export async function insertCourse(db: Db, orgId: string, title = `Course ${uuidv7().slice(-8)}`): Promise<string> {
  const id = uuidv7()
  await db
    .insertInto('courses')
    .values({ id, organization_id: orgId, title, s3_path: `courses/${id}`, launch_file: 'index.html' })
    .execute()
  return id
}
