import { clientAddress } from '../../lib/client-address.js'
import { ErrorBody } from '../../lib/schemas.js'
import { isTokenExchange } from '../sso/sso.schemas.js'
import { exchangeIdToken } from '../sso/sso.service.js'
import type { ModulePlugin } from '../types.js'
import { passwordLogin, type TokenRequest, TokenRequestBody, TokenResponse } from './auth.schemas.js'
import { logIn } from './auth.service.js'

export const authRoutes: ModulePlugin = (app, { db, tokens, config, oidc }) => {
  // The body schema is chosen by Content-Type, which the type provider cannot follow: the route names its type.
  app.post<{ Body: TokenRequest }>(
    '/token',
    {
      config: { public: true },
      schema: {
        operationId: 'createToken',
        summary: 'Get an access token',
        description:
          'JSON `{email, password}`, the OAuth2 password form (`username`, `password`), or an OIDC ID token exchange (`grant_type=urn:ietf:params:oauth:grant-type:token-exchange`). Failed logins are throttled per e-mail and client address (429 with Retry-After).',
        tags: ['auth'],
        body: TokenRequestBody,
        response: { 200: TokenResponse, 401: ErrorBody, 429: ErrorBody, 503: ErrorBody },
      },
    },
    async (request) => {
      const { body } = request
      if (isTokenExchange(body)) return exchangeIdToken({ db, tokens, oidc }, body.subject_token, request)
      const user = await logIn(db, config.login, { ...passwordLogin(body), address: clientAddress(request), requestId: request.id })
      const { token, expiresIn } = await tokens.issue({
        sub: user.id,
        org: user.organization_id,
        role: user.role,
        products: user.products,
      })
      return { access_token: token, token_type: 'bearer' as const, expires_in: expiresIn }
    },
  )
}
