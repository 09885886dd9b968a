import Type, { type Static } from 'typebox'

const password = Type.String({ maxLength: 256 })

// JSON clients send {email}; the OAuth2 password form sends {username}. Each form reports its own missing fields.
export const JsonTokenRequest = Type.Object({ email: Type.String({ maxLength: 254 }), password })
export const FormTokenRequest = Type.Object({
  username: Type.String({ maxLength: 254 }),
  password,
  grant_type: Type.Optional(Type.String()),
})
export type TokenRequest = Static<typeof JsonTokenRequest> | Static<typeof FormTokenRequest>

export const TokenRequestBody = {
  content: {
    'application/json': { schema: JsonTokenRequest },
    'application/x-www-form-urlencoded': { schema: FormTokenRequest },
  },
}

export const TokenResponse = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('bearer'),
  expires_in: Type.Integer(),
})
