import { timingSafeEqual } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { unauthorized } from '../../../lib/errors.js'
import type { ModulePlugin } from '../../types.js'

/** Compares in constant time, so the answer's timing says nothing about how much of a guess was right. */
function bearerMatches(request: FastifyRequest, token: string): boolean {
  const sent = Buffer.from(request.headers.authorization ?? '')
  const expected = Buffer.from(`Bearer ${token}`)
  return sent.length === expected.length && timingSafeEqual(sent, expected)
}

/** Prometheus scrapes this (DECISIONS §12); outside the API and its document, like /healthz. */
export const metricsRoutes: ModulePlugin = (app, { config, metrics }) => {
  app.get('/metrics', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    if (config.metricsToken !== null && !bearerMatches(request, config.metricsToken)) throw unauthorized()
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics())
  })
}
