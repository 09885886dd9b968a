import { clientAddress } from '../../../lib/client-address.js'
import { ErrorBody, NoContent } from '../../../lib/schemas.js'
import { isTokenExchange, REFRESH_GRANT } from '../sso/sso.schemas.js'
import { exchangeIdToken } from '../sso/sso.service.js'
import type { ModulePlugin } from '../../types.js'
import { passwordLogin, type TokenRequest, TokenRequestBody } from './auth.schemas.js'
import { logIn } from './auth.service.js'
import { invalidRefreshToken, refreshSession, startSession } from '../../../lib/sessions.js'
import { revokeRefreshToken } from '../../../lib/sessions.queries.js'
import { Logout, TokenResponse } from '../../../lib/sessions.schemas.js'
import { opaqueTokenHash } from '../../../lib/auth.js'

export const authRoutes: ModulePlugin = (app, { db, tokens, actors, config, oidc }) => {
  const sessions = { db, tokens, actors, refreshTokenTtlDays: config.accounts.refreshTokenTtlDays }
  // The body schema is chosen by Content-Type, which the type provider cannot follow: the route names its type.
  app.post<{ Body: TokenRequest }>(
    '/token',
    {
      config: { public: true },
      schema: {
        operationId: 'createToken',
        summary: 'Get an access token',
        description:
          'JSON `{email, password}`, the OAuth2 password form (`username`, `password`), a refresh token (`grant_type=refresh_token`, `refresh_token`: spent by the call; presenting a spent one revokes its whole sign-in), or an OIDC ID token exchange (`grant_type=urn:ietf:params:oauth:grant-type:token-exchange`). Every answer carries a new refresh token. Failed logins are throttled per e-mail and client address (429 with Retry-After); an unknown, spent, expired or revoked refresh token is a 401.',
        tags: ['auth'],
        body: TokenRequestBody,
        response: { 200: TokenResponse, 401: ErrorBody, 429: ErrorBody, 503: ErrorBody },
      },
    },
    async (request) => {
      const { body } = request
      if (isTokenExchange(body)) return exchangeIdToken({ ...sessions, oidc }, body.subject_token, request)
      if (body.grant_type === REFRESH_GRANT) return refreshSession(sessions, body.refresh_token ?? '', request.id)
      const user = await logIn(db, config.login, { ...passwordLogin(body), address: clientAddress(request), requestId: request.id })
      return startSession(sessions, user)
    },
  )

  app.post(
    '/logout',
    {
      config: { public: true },
      schema: {
        operationId: 'logout',
        summary: 'End a sign-in',
        description:
          'Ends the sign-in (204): its refresh token is revoked and every access token of the sign-in is refused from now on, on every instance. An unknown, spent, expired or revoked refresh token is a 401.',
        tags: ['auth'],
        body: Logout,
        response: { 204: NoContent, 401: ErrorBody },
      },
    },
    async (request, reply) => {
      const userId = await revokeRefreshToken(db, opaqueTokenHash(request.body.refresh_token))
      if (userId === undefined) throw invalidRefreshToken()
      actors.changed(userId)
      return reply.status(204).send(null)
    },
  )
}
