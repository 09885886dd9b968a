import Type, { type Static } from 'typebox'
import { Nullable } from '../../../lib/schemas.js'
import { RoleSchema } from '../users/users.schemas.js'

export const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange'
export const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token'

/** The token exchange's fields of `POST /api/v1/auth/token` (form or JSON). */
export const TokenExchangeFields = {
  subject_token: Type.Optional(Type.String({ minLength: 1, maxLength: 16384 })),
  subject_token_type: Type.Optional(Type.Literal(ID_TOKEN_TYPE)),
}

export const REFRESH_GRANT = 'refresh_token'

/**
 * With the token-exchange grant the subject token is required, with the refresh grant the refresh
 * token (DECISIONS §15); with any other, the given login fields.
 */
export const requiredByGrant = (loginFields: string[]) => ({
  if: { properties: { grant_type: { const: TOKEN_EXCHANGE } }, required: ['grant_type'] },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else, never awaited
  then: { required: ['subject_token', 'subject_token_type'] },
  else: {
    if: { properties: { grant_type: { const: REFRESH_GRANT } }, required: ['grant_type'] },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else, never awaited
    then: { required: ['refresh_token'] },
    else: { required: loginFields },
  },
})

export const isTokenExchange = (body: { grant_type?: string; subject_token?: string }): body is { subject_token: string } =>
  body.grant_type === TOKEN_EXCHANGE

const Url = Type.String({ format: 'uri', maxLength: 2048 })
// An issuer identifier has no query or fragment (OpenID Connect Discovery §2).
const ISSUER_HTTPS = '^https://[^?#\\s]+$'
const ISSUER_ANY = '^https?://[^?#\\s]+$'
// Where the browser sign-in hands the token over: https, http only on this machine (RFC 8252
// loopback), or an app's private-use scheme (`com.example.app:/…`). Never a fragment: one is appended.
const REDIRECT_URI = '^(https://|http://(127\\.0\\.0\\.1|localhost|\\[::1\\])(:[0-9]+)?(/|$)|[a-z][a-z0-9+-]*(\\.[a-z0-9+-]+)+:)[^#\\s]*$'

// Every key, whatever its characters, maps to a role (a pattern-keyed record would skip keys with a newline).
const RoleMap = Type.Unsafe<Record<string, Static<typeof RoleSchema>>>({
  type: 'object',
  additionalProperties: RoleSchema,
  propertyNames: { minLength: 1, maxLength: 200 },
  maxProperties: 100,
  description: 'Role claim value → role',
})

export const SsoSettings = Type.Object(
  {
    issuer: Type.String(),
    clientId: Type.String(),
    audience: Nullable(Type.String()),
    roleClaim: Nullable(Type.String()),
    roleMap: Type.Unsafe<Record<string, Static<typeof RoleSchema>>>({ type: 'object', additionalProperties: RoleSchema }),
    defaultRole: RoleSchema,
    enforce: Type.Boolean(),
    redirectUris: Type.Array(Type.String()),
    hasClientSecret: Type.Boolean({ description: 'Whether a client secret is stored (the secret is never returned)' }),
  },
  {
    title: 'SsoSettings',
    examples: [
      {
        issuer: 'https://login.example.com',
        clientId: 'seaworthy',
        audience: null,
        roleClaim: 'groups',
        roleMap: { 'fleet-admins': 'admin' },
        defaultRole: 'crew',
        enforce: false,
        redirectUris: ['https://app.example.com/signed-in'],
        hasClientSecret: true,
      },
    ],
  },
)
export type SsoSettings = Static<typeof SsoSettings>

/** The body of `PUT …/organization/sso`; `http://` issuers only where the configuration allows them. */
export function SsoSettingsInput(allowHttp: boolean) {
  return Type.Object(
    {
      issuer: Type.String({ ...Url, pattern: allowHttp ? ISSUER_ANY : ISSUER_HTTPS, description: 'https URL of the identity provider' }),
      clientId: Type.String({ minLength: 1, maxLength: 255 }),
      audience: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 255 }))),
      roleClaim: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
      roleMap: Type.Optional(RoleMap),
      defaultRole: Type.Optional(RoleSchema),
      enforce: Type.Optional(Type.Boolean()),
      redirectUris: Type.Optional(Type.Array(Type.String({ ...Url, pattern: REDIRECT_URI }), { maxItems: 20, uniqueItems: true })),
      clientSecret: Type.Optional(
        Nullable(Type.String({ minLength: 1, maxLength: 1000, description: 'Kept when omitted, removed with null; never returned' })),
      ),
    },
    {
      title: 'SsoSettingsInput',
      examples: [
        {
          issuer: 'https://login.example.com',
          clientId: 'seaworthy',
          roleClaim: 'groups',
          roleMap: { 'fleet-admins': 'admin' },
          defaultRole: 'crew',
          redirectUris: ['https://app.example.com/signed-in'],
          clientSecret: 's3cr3t',
        },
      ],
    },
  )
}
export type SsoSettingsInput = Static<ReturnType<typeof SsoSettingsInput>>

export const LoginParams = Type.Object({ domain: Type.String({ minLength: 1, maxLength: 253 }) })
export const LoginQuery = Type.Object({ redirect_uri: Type.String({ minLength: 1, maxLength: 2048 }) })

// What the identity provider appends to the callback (RFC 6749 §4.1.2, RFC 9207 `iss`); more is ignored.
export const CallbackQuery = Type.Object({
  state: Type.Optional(Type.String({ maxLength: 200 })),
  code: Type.Optional(Type.String({ maxLength: 4096 })),
  iss: Type.Optional(Type.String({ maxLength: 2048 })),
  error: Type.Optional(Type.String({ maxLength: 200 })),
})
export type CallbackQuery = Static<typeof CallbackQuery>

export const Redirect = Type.Null({ description: 'Redirect (Location header)' })
