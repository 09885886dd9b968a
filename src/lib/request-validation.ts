import type { ValidateFunction } from 'ajv'
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify'
import { ValidationFailed } from './errors.js'
import { compileSchema, toIssues, type ValidationIssue } from './validation.js'

type Part = 'params' | 'querystring' | 'body' | 'headers'
const PARTS: {
  part: Part
  loc: string
  coerce: boolean
  read: (r: FastifyRequest) => unknown
}[] = [
  { part: 'params', loc: 'path', coerce: true, read: (r) => r.params },
  { part: 'querystring', loc: 'query', coerce: true, read: (r) => r.query },
  { part: 'headers', loc: 'header', coerce: true, read: (r) => r.headers },
  { part: 'body', loc: 'body', coerce: false, read: (r) => r.body },
]

/**
 * Fastify validates one request part at a time and stops at the first failure; the contract
 * wants every problem of every part in one 422. Each route's schemas are compiled here and
 * checked together in preValidation; Fastify's own validator is switched off in app.ts.
 */
export function registerRequestValidation(app: FastifyInstance): void {
  app.setValidatorCompiler(() => () => true)
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = route.schema as Record<Part, unknown> | undefined
    if (!schema) return
    const checks = PARTS.filter((p) => schema[p.part]).map((p) => ({
      ...p,
      validator: compilePart(schema[p.part], p.coerce),
    }))
    if (checks.length === 0) return
    const flags = booleanFlags(schema.querystring)
    const validateAll = async (request: FastifyRequest) => {
      // An absent body is read as an empty object, so its required fields are each reported.
      if (schema.body && request.body === undefined) request.body = {}
      if (flags.length) normalizeFlags(request.query as Record<string, unknown>, flags)
      const issues: ValidationIssue[] = []
      for (const check of checks) issues.push(...runCheck(check.validator(request), check.read(request), check.loc))
      if (issues.length) throw new ValidationFailed(issues)
    }
    route.preValidation = [...toArray(route.preValidation), validateAll]
  })
}

/**
 * A part's validator for a request. A body may declare one schema per media type, in Fastify's
 * `{content: {<type>: {schema}}}` form: the request's Content-Type picks it, the first one when none matches.
 */
function compilePart(schema: unknown, coerce: boolean): (request: FastifyRequest) => ValidateFunction {
  const content = (schema as { content?: Record<string, { schema: unknown }> }).content
  if (!content) {
    const validate = compileSchema(schema, coerce)
    return () => validate
  }
  const byType = new Map(Object.entries(content).map(([type, media]) => [type, compileSchema(media.schema, coerce)]))
  const fallback = [...byType.values()][0]
  return (request) => {
    const type = request.headers['content-type']?.split(';')[0].trim().toLowerCase() ?? ''
    return byType.get(type) ?? fallback
  }
}

/** Query booleans also accept 1/0, which Ajv's coercion does not. */
function booleanFlags(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> })?.properties ?? {}
  return Object.entries(properties)
    .filter(([, p]) => p.type === 'boolean')
    .map(([name]) => name)
}

function normalizeFlags(query: Record<string, unknown>, flags: string[]): void {
  for (const flag of flags) {
    if (query[flag] === '1') query[flag] = 'true'
    else if (query[flag] === '0') query[flag] = 'false'
  }
}

function runCheck(validate: ValidateFunction, data: unknown, loc: string): ValidationIssue[] {
  return validate(data) ? [] : toIssues(validate.errors, [loc])
}

function toArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return []
  return Array.isArray(value) ? value : [value]
}
