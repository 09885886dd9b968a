import { v7 as uuidv7 } from 'uuid'
import type { Db } from '../../../db/database.js'
import type { Product } from '../../../db/schema.js'
import { hashPassword } from '../../../lib/auth.js'
import { insertUser } from '../users/users.queries.js'

export interface NewOrganization {
  name: string
  domain?: string | null
  products: Product[]
  admin: {
    email: string
    password: string
    firstName?: string
    lastName?: string
  }
}

/** An organization and its first admin, created together or not at all. */
export async function createOrganization(db: Db, input: NewOrganization): Promise<{ organizationId: string; adminUserId: string }> {
  const passwordHash = await hashPassword(input.admin.password)
  return db.transaction().execute(async (trx) => {
    const organizationId = uuidv7()
    await trx
      .insertInto('organizations')
      .values({
        id: organizationId,
        name: input.name,
        domain: input.domain ?? null,
        products: input.products,
      })
      .execute()
    const admin = await insertUser(trx, organizationId, {
      email: input.admin.email,
      firstName: input.admin.firstName ?? 'Admin',
      lastName: input.admin.lastName ?? input.name,
      role: 'admin',
      passwordHash,
      breakGlass: true,
    })
    return { organizationId, adminUserId: admin.id }
  })
}
