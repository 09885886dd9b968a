import { hashPassword, verifyPassword } from '../../lib/auth.js'
import { invalid, tooManyRequests, unauthorized } from '../../lib/errors.js'
import { mustUseSso } from '../sso/sso.queries.js'
import { isTokenExchange } from '../sso/sso.schemas.js'
import { exchangeIdToken } from '../sso/sso.service.js'
import type { Module } from '../types.js'
import { findUserByEmail, recordLogin } from '../users/users.queries.js'
import { recordFailure, throttleWait } from './auth.queries.js'
import { TokenRequest, TokenResponse } from './auth.schemas.js'

// Verifying against a real hash when the e-mail is unknown keeps response times alike.
const decoyHash = hashPassword('decoy-password-for-unknown-users')

export const authRoutes: Module = (app, { db, tokens, config, oidc }) => {
  app.post(
    '/api/v1/auth/token',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Get an access token (JSON {email, password}, the OAuth2 password form, or an OIDC ID token exchange)',
        consumes: ['application/json', 'application/x-www-form-urlencoded'],
        body: TokenRequest,
        response: { 200: TokenResponse },
      },
    },
    async (request) => {
      const { body } = request
      if (isTokenExchange(body)) return exchangeIdToken({ db, tokens, oidc }, body.subject_token, request.log)
      const login = body.email ?? body.username
      if (!login)
        throw invalid(['body', request.headers['content-type']?.includes('form') ? 'username' : 'email'], 'Field required', 'missing')
      const email = login.trim().toLowerCase()
      const wait = await throttleWait(db, email, request.ip, config.login)
      if (wait > 0) throw tooManyRequests(wait, 'Too many failed login attempts, try again later')

      const user = await findUserByEmail(db, email)
      if (user && (await mustUseSso(db, user.id))) throw unauthorized('Use single sign-on')
      // The schema requires the password for every grant but the token exchange.
      const ok = await verifyPassword(user?.password_hash ?? (await decoyHash), body.password!)
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
