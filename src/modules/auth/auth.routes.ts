import { hashPassword, verifyPassword } from '../../lib/auth.js'
import { invalid, tooManyRequests, unauthorized } from '../../lib/errors.js'
import type { ModulePlugin } from '../types.js'
import { findUserByEmail, recordLogin } from '../users/users.queries.js'
import { recordFailure, throttleWait } from './auth.queries.js'
import { TokenRequest, TokenResponse } from './auth.schemas.js'

// Verifying against a real hash when the e-mail is unknown keeps response times alike.
const decoyHash = hashPassword('decoy-password-for-unknown-users')

export const authRoutes: ModulePlugin = (app, { db, tokens, config }) => {
  app.post(
    '/token',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Get an access token (JSON {email, password} or the OAuth2 password form)',
        consumes: ['application/json', 'application/x-www-form-urlencoded'],
        body: TokenRequest,
        response: { 200: TokenResponse },
      },
    },
    async (request) => {
      const { body } = request
      const login = body.email ?? body.username
      if (!login)
        throw invalid(['body', request.headers['content-type']?.includes('form') ? 'username' : 'email'], 'Field required', 'missing')
      const email = login.trim().toLowerCase()
      const wait = await throttleWait(db, email, request.ip, config.login)
      if (wait > 0) throw tooManyRequests(wait, 'Too many failed login attempts, try again later')

      const user = await findUserByEmail(db, email)
      const ok = await verifyPassword(user?.password_hash ?? (await decoyHash), body.password)
      if (!user || !ok || user.state !== 'active') {
        await recordFailure(db, email, request.ip)
        throw unauthorized('Incorrect email or password')
      }
      await recordLogin(db, user.id)
      const { token, expiresIn } = await tokens.issue({
        sub: user.id,
        org: user.organization_id,
        role: user.role,
        products: user.products,
      })
      return {
        access_token: token,
        token_type: 'bearer' as const,
        expires_in: expiresIn,
      }
    },
  )
}
