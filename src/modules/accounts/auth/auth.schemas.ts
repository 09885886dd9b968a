import Type, { type Static } from 'typebox'
import { RefreshTokenField } from '../../../lib/sessions.schemas.js'
import { requiredByGrant, TokenExchangeFields } from '../sso/sso.schemas.js'

const password = Type.Optional(Type.String({ maxLength: 256 }))
const grant_type = Type.Optional(Type.String())
const refresh_token = Type.Optional(RefreshTokenField)

// JSON clients send {email}; the OAuth2 password form sends {username}. Each form reports its own missing
// fields; with the token-exchange grant, an ID token replaces them (DECISIONS §12).
export const JsonTokenRequest = Type.Object(
  { email: Type.Optional(Type.String({ maxLength: 254 })), password, grant_type, refresh_token, ...TokenExchangeFields },
  {
    ...requiredByGrant(['email', 'password']),
    title: 'TokenRequest',
    examples: [{ email: 'anna.berg@example.com', password: 'correct-horse-battery' }],
  },
)
export const FormTokenRequest = Type.Object(
  { username: Type.Optional(Type.String({ maxLength: 254 })), password, grant_type, refresh_token, ...TokenExchangeFields },
  {
    ...requiredByGrant(['username', 'password']),
    title: 'TokenRequestForm',
    examples: [{ username: 'anna.berg@example.com', password: 'correct-horse-battery', grant_type: 'password' }],
  },
)
export type TokenRequest = Static<typeof JsonTokenRequest> | Static<typeof FormTokenRequest>

export const TokenRequestBody = {
  content: {
    'application/json': { schema: JsonTokenRequest },
    'application/x-www-form-urlencoded': { schema: FormTokenRequest },
  },
}

/** The login of a password grant: the schema has required both fields for every grant but the token exchange. */
export function passwordLogin(body: TokenRequest): { email: string; password: string } {
  const email = 'email' in body ? body.email : 'username' in body ? body.username : undefined
  return { email: email ?? '', password: body.password ?? '' }
}
