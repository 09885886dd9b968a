import Type, { type Static } from 'typebox'

// What a sign-in answers and how a refresh token travels (DECISIONS §15): shared by password,
// SSO and invitation sign-ins, so it sits below the features that start sessions.

// Any string: a token of another length or shape (an access token included) is a 401 like any other unknown one.
export const RefreshTokenField = Type.String()

export const Logout = Type.Object({ refresh_token: RefreshTokenField }, { title: 'Logout', examples: [{ refresh_token: 'b3Jh…' }] })

export const TokenResponse = Type.Object(
  {
    access_token: Type.String(),
    token_type: Type.Literal('bearer'),
    expires_in: Type.Integer(),
    refresh_token: Type.String({
      description: 'Opaque, one use: trade it at this endpoint for the next pair (`grant_type=refresh_token`)',
    }),
  },
  {
    title: 'TokenResponse',
    examples: [{ access_token: 'eyJhbGciOiJIUzI1NiJ9…', token_type: 'bearer', expires_in: 3600, refresh_token: 'mZ0q…' }],
  },
)
export type TokenResponse = Static<typeof TokenResponse>
