import { randomBytes } from 'node:crypto'
import type { Db } from '../../../db/database.js'
import type { Role } from '../../../db/schema.js'
import { hashPassword } from '../../../lib/auth.js'
import { createOrganization } from '../../accounts/organizations/organizations.service.js'
import { insertUser } from '../../accounts/users/users.queries.js'
import { insertShip } from '../../crew/ships/ships.queries.js'
import { insertDemoCrewing } from './demo.queries.js'

export interface DemoLogin {
  role: Role
  email: string
  password: string
}

const PEOPLE: { role: Role; first: string; last: string }[] = [
  { role: 'office_admin', first: 'Olivia', last: 'Office' },
  { role: 'office_employee', first: 'Ethan', last: 'Employee' },
  { role: 'crew', first: 'Carlos', last: 'Crew' },
]

const SHIPS = [
  { name: 'MV Northern Star', imo_number: '9074729', flag: 'Malta' },
  { name: 'MV Southern Cross', imo_number: '9176187', flag: 'Panama' },
  { name: 'MV Eastern Dawn', imo_number: '9321483', flag: 'Liberia' },
]

/**
 * A demo organization with one user of each role, a few ships and crewing data worth looking at
 * (demo.queries.ts); passwords are random per run.
 */
export async function seedDemo(db: Db): Promise<{ organizationId: string; logins: DemoLogin[]; adminId: string; crewId: string }> {
  const suffix = randomBytes(3).toString('hex')
  const password = () => randomBytes(9).toString('base64url')
  const admin = {
    role: 'admin' as Role,
    email: `admin-${suffix}@demo.seaworthy.test`,
    password: password(),
  }
  const { organizationId, adminUserId } = await createOrganization(db, {
    name: `Demo Shipping ${suffix}`,
    domain: 'demo.seaworthy.test',
    products: ['learn', 'crew'],
    admin: {
      email: admin.email,
      password: admin.password,
      firstName: 'Ada',
      lastName: 'Admin',
    },
  })
  const logins: DemoLogin[] = [admin]
  let carlosId = ''
  for (const person of PEOPLE) {
    const login = {
      role: person.role,
      email: `${person.role.replace('_', '-')}-${suffix}@demo.seaworthy.test`,
      password: password(),
    }
    const user = await insertUser(db, organizationId, {
      email: login.email,
      firstName: person.first,
      lastName: person.last,
      role: person.role,
      passwordHash: await hashPassword(login.password),
    })
    if (person.role === 'crew') carlosId = user.id
    logins.push(login)
  }
  const shipIds: string[] = []
  for (const ship of SHIPS) shipIds.push((await insertShip(db, organizationId, ship)).id)
  await insertDemoCrewing(db, { orgId: organizationId, adminId: adminUserId, carlosId, shipIds })
  return { organizationId, logins, adminId: adminUserId, crewId: carlosId }
}

export async function hasOrganizations(db: Db): Promise<boolean> {
  return (await db.selectFrom('organizations').select('id').limit(1).executeTakeFirst()) !== undefined
}
