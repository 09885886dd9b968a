/** xAPI's scope names (xAPI 1.0.3 §4.1.7 / DECISIONS §13.1). */
export const XAPI_SCOPES = [
  'all',
  'all/read',
  'statements/write',
  'statements/read',
  'statements/read/mine',
  'state',
  'define',
  'profile',
] as const
export type XapiScope = (typeof XAPI_SCOPES)[number]
