/** HTTP Basic's `key:secret` (RFC 7617), read once for every credential the service takes; null when it is not Basic or names no key. */
export function basicCredential(authorization: string | undefined): { key: string; secret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '')
  if (!match) return null
  const decoded = Buffer.from(match[1], 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  return colon < 1 ? null : { key: decoded.slice(0, colon), secret: decoded.slice(colon + 1) }
}

export const encodeBasic = (key: string, secret: string) => Buffer.from(`${key}:${secret}`).toString('base64')
