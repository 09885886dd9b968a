import type { ValidateFunction } from 'ajv'
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify'
import { declaredTypesReader } from './declared-types.js'
import { ValidationFailed } from './errors.js'
import { undecodableParams, unstorableText } from './input-hygiene.js'
import { compileSchema, toIssues, type ValidationIssue } from './validation.js'

type Part = 'params' | 'querystring' | 'body' | 'headers'
const PARTS: {
  part: Part
  loc: string
  /** Text parts are read as their declared types first; bodies keep their JSON types. */
  text: boolean
  read: (r: FastifyRequest) => unknown
}[] = [
  { part: 'params', loc: 'path', text: true, read: (r) => r.params },
  { part: 'querystring', loc: 'query', text: true, read: (r) => r.query },
  { part: 'headers', loc: 'header', text: true, read: (r) => r.headers },
  { part: 'body', loc: 'body', text: false, read: (r) => r.body },
]

/**
 * Fastify validates one request part at a time and stops at the first failure; the contract
 * wants every problem of every part in one 422. Each route's schemas are compiled here and
 * checked together in preValidation; Fastify's own validator is switched off in app.ts.
 * Every declared part is also searched for text PostgreSQL cannot store, so no route can write it.
 */
export function registerRequestValidation(app: FastifyInstance): void {
  app.setValidatorCompiler(() => () => true)
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = route.schema as Record<Part, unknown> | undefined
    if (!schema) return
    const checks = PARTS.filter((p) => schema[p.part]).map((p) => ({
      ...p,
      validator: compilePart(schema[p.part]),
      readTypes: p.text ? declaredTypesReader(schema[p.part]) : null,
    }))
    if (checks.length === 0) return
    const validateAll = async (request: FastifyRequest) => {
      // An absent body is read as an empty object, so its required fields are each reported.
      if (schema.body && request.body === undefined) request.body = {}
      const issues: ValidationIssue[] = schema.querystring ? undecodableParams(rawQuery(request.raw.url), ['query']) : []
      for (const check of checks) issues.push(...unstorableText(check.read(request), [check.loc]))
      for (const check of checks) {
        const data = check.read(request)
        check.readTypes?.(data as Record<string, unknown>)
        const validate = check.validator(request)
        if (!validate(data)) issues.push(...toIssues(validate.errors, [check.loc]))
      }
      if (issues.length) throw new ValidationFailed(firstPerLoc(issues))
    }
    route.preValidation = [...toArray(route.preValidation), validateAll]
  })
}

/**
 * A part's validator for a request. A body may declare one schema per media type, in Fastify's
 * `{content: {<type>: {schema}}}` form: the request's Content-Type picks it, the first one when none matches.
 */
function compilePart(schema: unknown): (request: FastifyRequest) => ValidateFunction {
  const content = (schema as { content?: Record<string, { schema: unknown }> }).content
  if (!content) {
    const validate = compileSchema(schema, false)
    return () => validate
  }
  const byType = new Map(Object.entries(content).map(([type, media]) => [type, validatorFor(type, media.schema)]))
  const fallback = [...byType.values()][0]
  return (request) => {
    const type = request.headers['content-type']?.split(';')[0].trim().toLowerCase() ?? ''
    return byType.get(type) ?? fallback
  }
}

/** A multipart form is read as a stream by its handler, which checks each part as it arrives; it is declared for the document. */
function validatorFor(type: string, schema: unknown): ValidateFunction {
  return type === 'multipart/form-data' ? compileSchema({}, false) : compileSchema(schema, false)
}

function rawQuery(url = ''): string {
  const start = url.indexOf('?')
  return start === -1 ? '' : url.slice(start + 1)
}

/** One problem per field: an unstorable or undecodable value is not also reported as, say, too long. */
function firstPerLoc(issues: ValidationIssue[]): ValidationIssue[] {
  const seen = new Set<string>()
  return issues.filter((issue) => {
    const key = JSON.stringify(issue.loc)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

function toArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return []
  return Array.isArray(value) ? value : [value]
}
