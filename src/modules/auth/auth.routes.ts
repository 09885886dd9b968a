import { clientAddress } from '../../lib/client-address.js'
import type { ModulePlugin } from '../types.js'
import { type TokenRequest, TokenRequestBody, TokenResponse } from './auth.schemas.js'
import { logIn } from './auth.service.js'

export const authRoutes: ModulePlugin = (app, { db, tokens, config }) => {
  app.post(
    '/token',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Get an access token (JSON {email, password} or the OAuth2 password form)',
        body: TokenRequestBody,
        response: { 200: TokenResponse },
      },
    },
    async (request) => {
      // The body schema is chosen by Content-Type, which the type provider cannot follow.
      const body = request.body as TokenRequest
      const email = 'email' in body ? body.email : body.username
      const user = await logIn(db, config.login, { email, password: body.password, address: clientAddress(request) })
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
