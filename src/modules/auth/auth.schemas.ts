import Type from 'typebox'

// One body for both JSON ({email}) and the OAuth2 password form ({username}).
export const TokenRequest = Type.Object({
  email: Type.Optional(Type.String({ maxLength: 254 })),
  username: Type.Optional(Type.String({ maxLength: 254 })),
  password: Type.String({ maxLength: 256 }),
  grant_type: Type.Optional(Type.String()),
})

export const TokenResponse = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('bearer'),
  expires_in: Type.Integer(),
})
