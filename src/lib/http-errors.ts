import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { isTransient } from './db-errors.js'
import { AppError, ValidationFailed } from './errors.js'
import { undecodable } from './input-hygiene.js'

// Database errors that mean "the database is not there" rather than "the query is wrong".
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08006',
  '08001',
  '08003',
  '08004',
])

function isDatabaseDown(error: any): boolean {
  if (UNAVAILABLE_CODES.has(error?.code)) return true
  const message = String(error?.message ?? '')
  return /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|PGlite is closed|Client has encountered a connection error/i.test(
    message,
  )
}

/** The one place that turns errors into the contract's bodies. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError & Record<string, any>, request, reply) => {
    if (error instanceof ValidationFailed) {
      return reply.status(422).send({ detail: error.issues })
    }
    if (error instanceof AppError) {
      return reply.status(error.statusCode).headers(error.headers).send({ detail: error.detail })
    }
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return reply.status(422).send({
          detail: [
            {
              loc: ['body'],
              msg: 'JSON decode error',
              type: 'json_invalid',
            },
          ],
        })
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
      case 'FST_REQ_FILE_TOO_LARGE':
        return reply.status(413).send({ detail: 'Request body too large' })
    }
    if (error instanceof SyntaxError && error.statusCode === 400) {
      return reply.status(422).send({
        detail: [{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' }],
      })
    }
    if (isTransient(error)) {
      request.log.warn({ err: error }, 'write rolled back by the database: deadlock or serialization failure')
      return reply.status(503).header('retry-after', '1').send({ detail: 'Busy: try again' })
    }
    if (isDatabaseDown(error)) {
      request.log.warn({ err: error }, 'database unavailable')
      return reply.status(503).send({ detail: 'Database unavailable' })
    }
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.status(error.statusCode).send({ detail: error.message })
    }
    request.log.error({ err: error }, 'unhandled error')
    return reply.status(500).send({ detail: 'Internal server error' })
  })

  app.setNotFoundHandler((_request, reply) => reply.status(404).send({ detail: 'Not Found' }))
}

/**
 * Errors the router raises before any route runs, rendered by the same handler. A path whose escapes
 * are not UTF-8 (`%FF`, `%ED%A0%80`) cannot be matched to a parameter: a 422 at `["path"]`.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // The router's own 414 message repeats the whole parameter back.
  const shown =
    error.code === 'FST_ERR_BAD_URL'
      ? new ValidationFailed([undecodable(['path'])])
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? new AppError(414, 'A path parameter is too long')
        : error
  return request.server.errorHandler(shown as FastifyError, request, reply)
}
