import type { Loc, ValidationIssue } from './validation.js'

/** Every error the service answers with, rendered by the one error handler in http-errors.ts. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail)
  }
}

/** A 422 with the contract's list of problems. */
export class ValidationFailed extends Error {
  readonly statusCode = 422
  constructor(readonly issues: ValidationIssue[]) {
    super('Validation failed')
  }
}

export const unauthorized = (detail = 'Not authenticated') => new AppError(401, detail, { 'www-authenticate': 'Bearer' })
export const forbidden = (detail = 'Not enough permissions') => new AppError(403, detail)
export const notFound = (what = 'Resource') => new AppError(404, `${what} not found`)
export const conflict = (detail: string) => new AppError(409, detail)
export const tooManyRequests = (retryAfterSeconds: number, detail = 'Too many requests') =>
  new AppError(429, detail, {
    'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  })
export const unavailable = (detail = 'Database unavailable') => new AppError(503, detail)

export function invalid(loc: Loc, msg: string, type = 'value_error'): ValidationFailed {
  return new ValidationFailed([{ loc, msg, type }])
}

/** Collects cross-field problems so a request reports all of them at once. */
export class IssueList {
  readonly issues: ValidationIssue[] = []
  add(loc: Loc, msg: string, type = 'value_error'): this {
    this.issues.push({ loc, msg, type })
    return this
  }
  throwIfAny(): void {
    if (this.issues.length) throw new ValidationFailed(this.issues)
  }
}
