import type { FastifyError, FastifyInstance } from 'fastify'
import { AppError, ValidationFailed } from '../../../lib/errors.js'

/** xAPI's own errors (DECISIONS §13.1: 400, 401, 403, 404, 409, 412, 413), not the §1 error body. */
export class XapiError extends Error {
  constructor(
    readonly statusCode: 400 | 401 | 403 | 404 | 409 | 412 | 413,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }
}

export const badRequest = (message: string) => new XapiError(400, message)
export const xapiNotFound = (what: string) => new XapiError(404, `${what} not found`)

/** Framework errors (body too large, unreadable JSON) and any other 4xx keep their status with xAPI's body. */
function statusOf(error: FastifyError): number {
  if (error instanceof XapiError || error instanceof AppError) return error.statusCode
  if (error instanceof ValidationFailed) return 400
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return 413
  return typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? 400 : 500
}

/**
 * The LRS's error answers, for every route under the xAPI prefix: `{"error": true, "message"}` with
 * xAPI's status codes. A 5xx goes to the service's own handler (which logs it and echoes nothing).
 */
export function registerXapiErrors(app: FastifyInstance): void {
  const serviceHandler = app.errorHandler
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = statusOf(error)
    if (status >= 500) return serviceHandler.call(app, error, request, reply)
    const headers = error instanceof XapiError || error instanceof AppError ? error.headers : {}
    const message =
      error instanceof ValidationFailed ? error.issues.map((issue) => `${issue.loc.join('.')}: ${issue.msg}`).join('; ') : error.message
    return reply.status(status).headers(headers).send({ error: true, message })
  })
}
