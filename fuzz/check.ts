import * as Ajv2020Module from 'ajv/dist/2020.js'
import type { ValidateFunction } from 'ajv'
import * as addFormatsModule from 'ajv-formats'
import type { LightMyRequestResponse } from 'fastify'
import type { JsonSchema, Operation } from '../test/served-routes.js'

// What every answer must be: not a 5xx, a status the operation documents, a body that validates
// against the documented schema of that status (no body for one documented without content), and
// the headers the contract ties to a status.

// Both ship CommonJS; their default exports arrive one level down under NodeNext.
const Ajv2020 = (Ajv2020Module as any).default.default ?? (Ajv2020Module as any).default
const addFormats = (addFormatsModule as any).default.default ?? (addFormatsModule as any).default

const NO_ROUTE: JsonSchema = { type: 'object', required: ['detail'], properties: { detail: {} } }

const templateOf = (path: string) =>
  new RegExp(
    `^${path
      .replace(/\/$/, '')
      .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
      .replace(/\{\w+\}/g, '[^/]+')}/?$`,
  )

/**
 * The operation that answers a URL: the planned one, unless the URL's dot segments or an empty
 * parameter made it another operation's (`/assignments/.` is `/assignments/`), or none at all.
 */
export function routedOperation(operations: Operation[], planned: Operation, url: string): Operation | null {
  const path = new URL(url, 'http://localhost').pathname
  if (templateOf(planned.path).test(path)) return planned
  return operations.find((op) => op.method === planned.method && templateOf(op.path).test(path)) ?? null
}

/** The operation whose method and path template a URL matches, or null. */
export function operationOf(operations: Operation[], method: string, url: string): Operation | null {
  const path = new URL(url, 'http://localhost').pathname
  return operations.find((op) => op.method === method && templateOf(op.path).test(path)) ?? null
}

const hasDotSegment = (url: string) => /\/(\.|%2e){1,2}(\/|$)/i.test(url.split('?')[0])

export class AnswerChecker {
  private readonly ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true })
  private readonly compiled = new Map<JsonSchema, ValidateFunction>()

  constructor(operations: Operation[]) {
    addFormats(this.ajv)
    // Formats of our own domain (imo-number, country-code…) are the request side's business.
    const formats = new Set<string>()
    const collect = (node: unknown) => {
      if (!node || typeof node !== 'object') return
      const { format } = node as { format?: unknown }
      if (typeof format === 'string') formats.add(format)
      for (const child of Object.values(node)) collect(child)
    }
    for (const op of operations) collect(op.responses)
    for (const format of formats) if (!this.ajv.formats[format]) this.ajv.addFormat(format, true)
  }

  private matches(schema: JsonSchema, text: string): boolean {
    try {
      return this.validator(schema)(JSON.parse(text))
    } catch {
      return false
    }
  }

  private validator(schema: JsonSchema): ValidateFunction {
    let validate = this.compiled.get(schema)
    if (!validate) {
      validate = this.ajv.compile(schema) as ValidateFunction
      this.compiled.set(schema, validate)
    }
    return validate
  }

  /**
   * Why the answer breaks the document, or null when it does not. No operation: the URL is no route of
   * it, unless dot segments moved it (`%2e%2e` resolves like `..`) onto a path the document leaves out,
   * such as an older alias; there only a 5xx is wrong.
   */
  problem(op: Operation | null, response: LightMyRequestResponse, url: string): string | null {
    const status = response.statusCode
    if (status >= 500) return `a ${status}`
    if (!op && hasDotSegment(url)) return null
    if (!op) return this.matches(NO_ROUTE, response.body) ? null : 'the answer to a URL of no operation is not {"detail": …}'
    const documented = op.responses[String(status)]
    if (!documented)
      return `status ${status} is not documented for ${op.method} ${op.path} (documented: ${Object.keys(op.responses).join(', ')})`
    // Bearer for the API; Basic for the operations a launch session's own credential calls (the SCORM player's).
    if (status === 401 && !/^(Bearer|Basic)\b/i.test(String(response.headers['www-authenticate'] ?? '')))
      return '401 without WWW-Authenticate: Bearer or Basic'
    if (status === 429 && !response.headers['retry-after']) return '429 without Retry-After'
    const types = Object.keys(documented)
    if (types.length === 0) return response.rawPayload.length ? `status ${status} is documented without a body, but one came` : null
    const contentType = String(response.headers['content-type'] ?? '')
    const type = types.find((t) => contentType.toLowerCase().startsWith(t))
    const schema = documented[type ?? types[0]]
    // A file (`format: binary`) is whatever was uploaded.
    if (schema.format === 'binary') return null
    if (!type) return `content-type "${contentType}" is not documented for ${status} (documented: ${types.join(', ')})`
    // A CSV export is text (lib/csv.ts); its content is the tests' business.
    if (type === 'text/csv') return null
    let body: unknown
    try {
      body = JSON.parse(response.body)
    } catch {
      return `the ${status} body is not JSON`
    }
    const validate = this.validator(schema)
    if (validate(body)) return null
    const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}`)
    return `the ${status} body does not match its documented schema: ${errors.join('; ')}`
  }
}
