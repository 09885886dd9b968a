import Type, { type Static } from 'typebox'
import { iso } from '../../../lib/dates.js'
import { DateTime, IdParams, ListQuery, Page, Uuid } from '../../../lib/schemas.js'
import { XAPI_SCOPES, type XapiScope } from './scopes.js'

const example = {
  id: '0190a000-0000-7000-8000-000000000c01',
  name: 'Bridge simulator',
  key: '6f1d0c8e9b2a4d7c8e1f0a3b5c7d9e2f',
  scopes: ['statements/write', 'statements/read/mine'],
  createdAt: '2026-06-15T08:30:00.000Z',
}

export const XapiCredential = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    key: Type.String({ description: 'The HTTP Basic user name' }),
    scopes: Type.Array(Type.Enum(XAPI_SCOPES)),
    createdAt: DateTime,
  },
  { title: 'XapiCredential', examples: [example] },
)
export type XapiCredential = Static<typeof XapiCredential>

export const XapiCredentialCreated = Type.Object(
  {
    ...XapiCredential.properties,
    secret: Type.String({ description: 'The HTTP Basic password: shown only in this answer, stored only as a hash' }),
  },
  { title: 'XapiCredentialCreated', examples: [{ ...example, secret: 'q3Jx0Zr7Yb2m9Kf4Wd8Tn1Lc6Hs5Pv0Ea2Ug7Ri3Oy4' }] },
)

export const XapiCredentialCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    scopes: Type.Optional(
      Type.Array(Type.Enum(XAPI_SCOPES), { minItems: 1, uniqueItems: true, description: 'xAPI\'s scope names; default ["all"]' }),
    ),
  },
  { title: 'XapiCredentialCreate', examples: [{ name: example.name, scopes: example.scopes }] },
)
export type XapiCredentialCreate = Static<typeof XapiCredentialCreate>

export const XapiCredentialPage = Page(XapiCredential)
export const XapiCredentialListQuery = ListQuery
export const XapiCredentialParams = IdParams('credential_id')

export const toCredential = (row: { id: string; name: string; key: string; scopes: string[]; created_at: Date }): XapiCredential => ({
  id: row.id,
  name: row.name,
  key: row.key,
  scopes: row.scopes as XapiScope[],
  createdAt: iso(row.created_at),
})
