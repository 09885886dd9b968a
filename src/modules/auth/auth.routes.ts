import { clientAddress } from '../../lib/client-address.js'
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
        tags: ['auth'],
        summary: 'Get an access token (JSON {email, password}, the OAuth2 password form, or an OIDC ID token exchange)',
        body: TokenRequestBody,
        response: { 200: TokenResponse },
      },
    },
    async (request) => {
      const { body } = request
      if (isTokenExchange(body)) return exchangeIdToken({ db, tokens, oidc }, body.subject_token, request.log)
      const user = await logIn(db, config.login, { ...passwordLogin(body), address: clientAddress(request) })
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
