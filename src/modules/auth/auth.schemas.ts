import Type from 'typebox'
import { requiredByGrant, TokenExchangeFields } from '../sso/sso.schemas.js'

// One body for both JSON ({email}) and the OAuth2 password form ({username}), and the ID token exchange.
export const TokenRequest = Type.Object(
  {
    email: Type.Optional(Type.String({ maxLength: 254 })),
    username: Type.Optional(Type.String({ maxLength: 254 })),
    password: Type.Optional(Type.String({ maxLength: 256 })),
    grant_type: Type.Optional(Type.String()),
    ...TokenExchangeFields,
  },
  requiredByGrant,
)

export const TokenResponse = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('bearer'),
  expires_in: Type.Integer(),
})
