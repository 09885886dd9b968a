import type { FastifyRequest, FastifyServerOptions } from 'fastify'

const REDACTED = '[redacted]'

// Query parameters that authorize by themselves: our signed download links (`signature`), S3's presigned
// URLs (`X-Amz-Signature`, `X-Amz-Credential`, `X-Amz-Security-Token`), OAuth-style tokens and codes.
const SECRET_PARAM = /signature|credential|token|secret|password|^code$|^policy$/i

/** The URL with the value of every credential-like query parameter replaced, so no log line can replay it. */
export function redactUrl(url: string): string {
  const start = url.indexOf('?')
  if (start === -1) return url
  const params = url
    .slice(start + 1)
    .split('&')
    .map((param) => {
      const name = param.split('=', 1)[0]
      return SECRET_PARAM.test(decodeName(name)) ? `${name}=${REDACTED}` : param
    })
  return `${url.slice(0, start)}?${params.join('&')}`
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '))
  } catch {
    return name
  }
}

/** Fastify's own request serializer, with the URL redacted. */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  }
}

/** Logger options: the given ones (or the configured level) with the redacting request serializer. */
export function loggerOptions(level: string, given: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (given === false) return false
  const base = typeof given === 'object' ? given : { level }
  return { ...base, serializers: { ...base.serializers, req: serializeRequest } }
}
