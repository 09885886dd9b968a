import { isIP } from 'node:net'
import type { FastifyRequest } from 'fastify'

/**
 * The client's address: the TCP peer, or, from the proxies TRUST_PROXY names, the address they
 * forwarded (Fastify walks X-Forwarded-For back to the first untrusted hop). A forwarded value that
 * is not an IP address is ignored: the nearest hop before it that is one stands for the client.
 */
export function clientAddress(request: FastifyRequest): string {
  const hops = request.ips ?? [request.ip]
  for (let i = hops.length - 1; i >= 0; i--) if (isIP(hops[i])) return hops[i]
  return request.ip
}
