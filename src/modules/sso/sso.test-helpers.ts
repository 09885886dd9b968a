import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { expect } from 'vitest'
import { client, type TestApp } from '../../../test/app.js'
import { createOrg, PASSWORD, type TestOrg } from '../../../test/factories.js'
import type { TestProvider } from './sso.provider.test-helpers.js'

// What the single-sign-on tests share: requests, database reads and an organization trusting a provider.

export const SSO = '/api/v1/shared/organization/sso'
export const INVALID = { detail: 'Invalid identity token' }
export const EXCHANGE = {
  grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
  subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
}
export const newEmail = () => `sso-${randomUUID()}@example.test`

export function ssoKit(t: TestApp) {
  const userRow = (email: string) =>
    t.database.db.selectFrom('users').selectAll().where(sql`lower(email)`, '=', email.toLowerCase()).executeTakeFirst()
  return {
    exchange: (subjectToken: string) => client(t.app).post('/api/v1/auth/token', { ...EXCHANGE, subject_token: subjectToken }),
    passwordLogin: (email: string) => client(t.app).post('/api/v1/auth/token', { email, password: PASSWORD }),
    userRow,
    settingsRow: (orgId: string) =>
      t.database.db.selectFrom('sso_settings').selectAll().where('organization_id', '=', orgId).executeTakeFirst(),

    /** An organization of its own that trusts `idp`, under a client id of its own. */
    async ssoOrg(idp: TestProvider, settings: Record<string, unknown> = {}): Promise<{ org: TestOrg; clientId: string }> {
      const org = await createOrg(t.app, t.database.db)
      const clientId = `client-${randomUUID()}`
      const res = await org.admin.api.put(SSO, { issuer: idp.issuer, clientId, ...settings })
      expect(res.status).toBe(200)
      return { org, clientId }
    },

    /** The answer is a Seaworthy token of that user. */
    async expectSignedInAs(res: { status: number; body: any }, userId: string) {
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        access_token: expect.any(String),
        token_type: 'bearer',
        expires_in: 3600,
        refresh_token: expect.any(String),
      })
      const me = await client(t.app, res.body.access_token).get('/api/v1/users/me')
      expect(me.status).toBe(200)
      expect(me.body.user.id).toBe(userId)
      return me.body.user
    },
  }
}
