import { SignJWT } from 'jose'
import { sql } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { Db } from '../src/db/database.js'
import type { Role } from '../src/db/schema.js'
import { createTokens, hashPassword } from '../src/lib/auth.js'
import { insertUser } from '../src/modules/accounts/users/users.queries.js'
import { IdList, IdRef, KNOWN_PASSWORD, Known, kindOf } from './schema.js'

// The fuzzer's view of the database: two organizations with a user of each role, and every id and
// value the server has answered since, by kind, so requests can name real rows.

const ROLES: Role[] = ['admin', 'office_admin', 'office_employee', 'crew']
const POOL_SIZE = 200

interface Org {
  id: string
  users: Record<Role, string>
  /** Ids by kind, as the server answered them to this organization's callers. */
  ids: Map<string, string[]>
}

/** Who sends a request: a user of organization A (or B), or someone without a valid token. */
export const CALLERS = [
  'admin',
  'office_admin',
  'office_employee',
  'crew',
  'other:admin',
  'other:crew',
  'anonymous',
  'forged:signature',
  'forged:alg-none',
  'forged:expired',
  'forged:unknown-user',
  'forged:other-org',
  'forged:garbage',
  'forged:basic',
  'forged:empty',
  'lowercase-scheme',
  /** A SCORM launch session's own credential (Basic), once the learning scenario has launched one. */
  'session',
] as const
export type Caller = (typeof CALLERS)[number]

export class World {
  private readonly known = new Map<string, unknown[]>()
  private readonly authorization = new Map<Caller, string | undefined>()

  private constructor(
    private readonly db: Db,
    readonly a: Org,
    readonly b: Org,
    /** The path segment before `{x_id}` names kind x: `identity-documents` → `document`. */
    private readonly segmentKinds: Map<string, string>,
  ) {}

  static async create(db: Db, secret: string, paths: string[]): Promise<World> {
    const hash = await hashPassword(KNOWN_PASSWORD)
    const [a, b] = [await seedOrg(db, hash, 'A'), await seedOrg(db, hash, 'B')]
    const segmentKinds = new Map<string, string>()
    for (const path of paths) {
      for (const [, segment, param] of path.matchAll(/([^/{}]+)\/\{(\w+)\}/g)) segmentKinds.set(segment, kindOf(param))
    }
    const world = new World(db, a, b, segmentKinds)
    await world.mintTokens(secret)
    for (const org of [a, b]) {
      const emails = await db.selectFrom('users').select('email').where('organization_id', '=', org.id).execute()
      for (const { email } of emails) world.remember('email', email)
    }
    return world
  }

  private async mintTokens(secret: string): Promise<void> {
    const tokens = createTokens(secret, 3600)
    const products: ('learn' | 'crew')[] = ['learn', 'crew']
    const token = async (org: Org, role: Role) =>
      (await tokens.issue({ sub: org.users[role], org: org.id, role, products, sid: uuidv7() })).token
    const key = new TextEncoder().encode(secret)
    const sign = (claims: Record<string, unknown>, signingKey = key, expires: string | number = '1h') =>
      new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime(expires).sign(signingKey)
    const adminClaims = { sub: this.a.users.admin, org: this.a.id, role: 'admin', products }
    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
    const entries: [Caller, string | undefined][] = [
      ['anonymous', undefined],
      ['forged:signature', `Bearer ${await sign(adminClaims, new TextEncoder().encode('another secret, another secret, 1234'))}`],
      ['forged:alg-none', `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...adminClaims, exp: 4102444800 })}.`],
      ['forged:expired', `Bearer ${await sign(adminClaims, key, Math.floor(Date.now() / 1000) - 60)}`],
      ['forged:unknown-user', `Bearer ${await sign({ ...adminClaims, sub: uuidv7() })}`],
      ['forged:other-org', `Bearer ${await sign({ ...adminClaims, org: this.b.id })}`],
      ['forged:garbage', 'Bearer not.a.token'],
      ['forged:basic', 'Basic YWRtaW46YWRtaW4='],
      ['forged:empty', 'Bearer '],
      ['lowercase-scheme', `bearer ${await token(this.a, 'admin')}`],
      ['other:admin', `Bearer ${await token(this.b, 'admin')}`],
      ['other:crew', `Bearer ${await token(this.b, 'crew')}`],
    ]
    for (const role of ROLES) entries.push([role, `Bearer ${await token(this.a, role)}`])
    for (const [caller, value] of entries) this.authorization.set(caller, value)
  }

  authorizationOf(caller: Caller): string | undefined {
    return this.authorization.get(caller)
  }

  setAuthorization(caller: Caller, value: string): void {
    this.authorization.set(caller, value)
  }

  /** The organization a caller's answers belong to (forged callers are refused: theirs is A's). */
  orgOf(caller: Caller): Org {
    return caller.startsWith('other:') ? this.b : this.a
  }

  private userOf(caller: Caller): string | undefined {
    const role = caller.replace(/^other:/, '') as Role
    return ROLES.includes(role) ? this.orgOf(caller).users[role] : undefined
  }

  /** An id of `ref.kind`: mostly the caller's organization's, sometimes the caller, another organization's, another kind's or none. */
  resolveId(ref: IdRef, caller: Caller): string {
    const own = this.orgOf(caller)
    const other = own === this.a ? this.b : this.a
    const fresh = `00000000-0000-4000-8000-${(ref.pick % 500).toString(16).padStart(12, '0')}`
    const self = ref.kind === 'user' || ref.kind === 'id' ? this.userOf(caller) : undefined
    const choose = (ids: string[] | undefined) => (ids?.length ? ids[ref.pick % ids.length] : fresh)
    if (ref.source < 60) return choose(this.idsOf(own, ref.kind))
    if (ref.source < 70) return self ?? choose(this.idsOf(own, ref.kind))
    if (ref.source < 85) return choose(this.idsOf(other, ref.kind))
    if (ref.source < 93) return choose([...own.ids.values()].flat())
    return fresh
  }

  private idsOf(org: Org, kind: string): string[] | undefined {
    if (kind === 'organization') return [org.id]
    return org.ids.get(kind) ?? [...org.ids.values()].flat()
  }

  /** Replaces every IdRef, IdList and Known in a generated value; `path` scopes known cursors. */
  resolve(value: unknown, caller: Caller, path: string): unknown {
    if (value instanceof IdRef) return this.resolveId(value, caller)
    if (value instanceof IdList) return value.refs.map((ref) => this.resolveId(ref, caller)).join(',')
    if (value instanceof Known) {
      const values = this.known.get(value.kind === 'cursor' ? `cursor ${path}` : value.kind)
      return values?.length ? values[value.pick % values.length] : value.fallback
    }
    if (Array.isArray(value)) return value.map((item) => this.resolve(item, caller, path))
    if (isPlainObject(value)) {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.resolve(item, caller, path)]))
    }
    return value
  }

  private remember(kind: string, value: unknown): void {
    const values = this.known.get(kind) ?? []
    if (values.includes(value)) return
    if (values.length < POOL_SIZE) values.push(value)
    else values[values.length % POOL_SIZE] = value
    this.known.set(kind, values)
  }

  private addId(org: Org, kind: string, id: string): void {
    const ids = org.ids.get(kind) ?? []
    if (ids.includes(id)) return
    if (ids.length < POOL_SIZE) ids.push(id)
    else ids[(ids.length + id.charCodeAt(id.length - 1)) % POOL_SIZE] = id
    org.ids.set(kind, ids)
  }

  /** Learns the ids, e-mails and cursors of a successful answer to `caller` at `path`. */
  harvest(body: unknown, caller: Caller, path: string): void {
    const org = this.orgOf(caller)
    const pathKind = path.split('/').reverse().map(this.kindOfSegment).find(Boolean) ?? ''
    const pending: [unknown, string][] = [[body, pathKind]]
    for (let next = pending.pop(); next; next = pending.pop()) {
      const [item, kind] = next
      if (Array.isArray(item)) {
        for (const element of item) pending.push([element, kind])
      } else if (item && typeof item === 'object') {
        for (const [key, field] of Object.entries(item)) {
          if (key === 'id' && kind && typeof field === 'string') this.addId(org, kind, field)
          else if (/(Id|_id)$/.test(key) && typeof field === 'string' && /^[0-9a-f-]{36}$/i.test(field)) this.addId(org, kindOf(key), field)
          else if (key === 'email' && typeof field === 'string') this.remember('email', field)
          else if (key === 'nextCursor' && typeof field === 'string') this.remember(`cursor ${path}`, field)
          else if (field && typeof field === 'object') pending.push([field, key === 'items' ? kind : this.kindOfSegment(kebab(key))])
        }
      }
    }
  }

  /** `identity-documents` → `document`; a singular (`user`) finds its plural's kind too. */
  private readonly kindOfSegment = (segment: string): string => this.segmentKinds.get(segment) ?? this.segmentKinds.get(`${segment}s`) ?? ''

  /** Puts the callers back as they were (role, state, organization) when a write may have changed them. */
  async repairCallers(requestText: string): Promise<void> {
    const callers = [this.a, this.b].flatMap((org) => ROLES.map((role) => ({ id: org.users[role], role, orgId: org.id })))
    if (!callers.some((c) => requestText.includes(c.id) || requestText.includes(c.orgId))) return
    for (const { id, role, orgId } of callers) {
      await sql`update users set role = ${role}, state = 'active', organization_id = ${orgId}
        where id = ${id} and (role <> ${role} or state <> 'active' or organization_id <> ${orgId})`.execute(this.db)
    }
    await sql`update organizations set products = '{learn,crew}' where id in (${this.a.id}, ${this.b.id}) and products <> '{learn,crew}'`.execute(
      this.db,
    )
  }

  poolSizes(): string {
    return [...this.a.ids.entries()].map(([kind, ids]) => `${kind} ${ids.length}`).join(', ')
  }
}

/** fast-check builds some records without a prototype. */
const isPlainObject = (value: unknown): value is object =>
  !!value && typeof value === 'object' && [null, Object.prototype].includes(Object.getPrototypeOf(value))

const kebab = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()

async function seedOrg(db: Db, hash: string, name: string): Promise<Org> {
  const id = uuidv7()
  await db
    .insertInto('organizations')
    .values({ id, name: `Fuzz ${name}`, domain: null, products: ['learn', 'crew'] })
    .execute()
  const users = {} as Record<Role, string>
  for (const role of ROLES) {
    const email = `${role.replace('_', '-')}-${name.toLowerCase()}-${id.slice(-8)}@fuzz.example.test`
    users[role] = (await insertUser(db, id, { email, firstName: 'Fuzz', lastName: role, role, passwordHash: hash })).id
  }
  return { id, users, ids: new Map([['user', Object.values(users)]]) }
}
