import { isDeepStrictEqual } from 'node:util'
import type { SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger'
import type { RouteOptions } from 'fastify'
import { exportsCsv, jsonOrCsv } from './csv.js'
import { ErrorBody, ValidationErrorBody } from './schemas.js'

/**
 * The served OpenAPI document as a product for code generators (DECISIONS §12), derived in one place
 * so every route, including routes added later, gets it: the error statuses each operation can really
 * answer with (read from how the route is declared), an operationId, named component schemas (every
 * schema with a `title`) and optional query parameters where a default applies.
 */

type Json = Record<string, any>

const ERRORS: Record<number, { description: string; schema: Json }> = {
  401: { description: 'Not authenticated', schema: ErrorBody },
  403: { description: 'Not allowed for this role, organization or product', schema: ErrorBody },
  404: { description: 'Not found or not visible to the caller', schema: ErrorBody },
  409: { description: 'Conflict with the current state', schema: ErrorBody },
  413: { description: 'Request body too large', schema: ErrorBody },
  414: { description: 'A path parameter is too long', schema: ErrorBody },
  422: { description: 'Validation error', schema: ValidationErrorBody },
  429: { description: 'Too many attempts; retry after the Retry-After header', schema: ErrorBody },
  503: { description: 'Database unavailable', schema: ErrorBody },
}

const SUCCESS: Record<string, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content', 302: 'Redirect' }
const VERBS: Record<string, string> = { GET: 'get', POST: 'create', PUT: 'replace', PATCH: 'update', DELETE: 'delete' }
const PARTS = ['params', 'querystring', 'body', 'headers']

/**
 * The error statuses a route can answer with. By rule: 401 and 503 behind the bearer token (the caller
 * is read from the database), 403 where roles or a product gate it, 404 and 414 (the router's length
 * limit) where the path has a parameter, 413 and 422 where a body can be sent (any method but GET and
 * HEAD), 422 also where any other part is validated. Statuses a handler adds (409, a public route's
 * 401/429/503) are declared in the route's `response`.
 */
export function errorStatuses(route: RouteOptions): number[] {
  const schema = (route.schema ?? {}) as Json
  const config = (route.config ?? {}) as Json
  const open = isPublic(route)
  const methods = [route.method].flat()
  // Fastify reads a body sent with any method but GET and HEAD: DELETE too can be too large or not JSON.
  const readsBody = methods.some((m) => m !== 'GET' && m !== 'HEAD')
  const rules: [number, boolean][] = [
    [401, !open],
    [403, Boolean(config.roles || config.product)],
    [404, route.url.includes('/:')],
    [413, readsBody],
    [414, route.url.includes('/:')],
    [422, readsBody || PARTS.some((part) => schema[part])],
    [503, !open],
  ]
  return rules.filter(([, applies]) => applies).map(([status]) => status)
}

/** As the auth hook reads it (lib/auth.ts): routes outside /api/ take no token. */
const isPublic = (route: RouteOptions) => Boolean((route.config as Json | undefined)?.public) || !route.url.startsWith('/api/')

/** @fastify/swagger's per-route transform: the route's own responses plus the errors it can answer with. */
export const documentRoute: SwaggerTransform = ({ schema, url, route }) => {
  const response: Json = { ...(schema as Json)?.response }
  for (const status of errorStatuses(route)) response[status] ??= ERRORS[status].schema
  if (exportsCsv((schema as Json)?.querystring)) response[200] = jsonOrCsv(response[200])
  // A public route says so: an empty list, not a missing one (which would mean "as the document default").
  const security = (schema as Json)?.security ?? (isPublic(route) ? [] : [{ bearerAuth: [] }])
  return { url, schema: { ...schema, response, security } }
}

/** @fastify/swagger's whole-document transform: operation ids, descriptions, optional defaults, components. */
export const documentObject: SwaggerTransformObject = (document) => {
  if (!('openapiObject' in document)) return document.swaggerObject
  const openapiObject = document.openapiObject as Json
  const components: Record<string, Json> = { ...openapiObject.components?.schemas }
  for (const [path, item] of Object.entries(openapiObject.paths ?? {}) as [string, Json][]) {
    for (const [method, operation] of Object.entries(item) as [string, Json][]) {
      operation.operationId ??= operationIdOf(method.toUpperCase(), path)
      operation.summary ??= sentence(operation.operationId)
      for (const parameter of operation.parameters ?? []) {
        if (parameter.schema?.default !== undefined) parameter.required = false
      }
      for (const media of Object.values(operation.requestBody?.content ?? {}) as Json[]) optionalDefaults(media.schema)
      for (const [status, response] of Object.entries(operation.responses ?? {}) as [string, Json][]) {
        if (response.description === 'Default Response') response.description = responseDescription(status, response)
        for (const media of Object.values(response.content ?? {}) as Json[]) media.example ??= exampleOf(media.schema)
      }
    }
    hoist(item, components)
  }
  openapiObject.components = { ...openapiObject.components, schemas: sortedKeys(components) }
  return openapiObject
}

/**
 * A fallback id from the method and the literal path words after the API version and its area,
 * e.g. `GET /api/v1/learn/admin/analytics/course-difficulty` → `listAdminAnalyticsCourseDifficulty`.
 * Routes name their own (`schema.operationId`); this keeps a new route's id stable and unique meanwhile.
 */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/api\/v\d+\/(shared|crew|learn)?/, '')
    .replace(/\{[^}]*\}/g, '')
    .split(/[/_-]/)
    .filter(Boolean)
  const byId = /\}\/?$/.test(path) ? 'ById' : ''
  const verb = method === 'GET' && !byId ? 'list' : (VERBS[method] ?? method.toLowerCase())
  return verb + words.map((w) => w[0].toUpperCase() + w.slice(1)).join('') + byId
}

const sentence = (id: string) => id.replace(/([A-Z])/g, ' $1').replace(/^./, (c) => c.toUpperCase())

function responseDescription(status: string, response: Json): string {
  if (ERRORS[Number(status)]) return ERRORS[Number(status)].description
  const schema = (Object.values(response.content ?? {})[0] as Json | undefined)?.schema
  const name = schema?.title ?? schema?.$ref?.split('/').pop()
  return [SUCCESS[status] ?? `Status ${status}`, name].filter(Boolean).join(': ')
}

/** A list answers with a list of its item's example. */
function exampleOf(schema: Json | undefined): unknown {
  if (schema?.type !== 'array') return undefined
  const item = schema.items?.examples?.[0]
  return item === undefined ? undefined : [item]
}

/** A request may leave out what has a default; a generated client must not demand it. */
function optionalDefaults(schema: Json | undefined): void {
  if (!schema?.properties || !Array.isArray(schema.required)) return
  schema.required = schema.required.filter((name: string) => schema.properties[name]?.default === undefined)
  if (schema.required.length === 0) delete schema.required
}

const ANNOTATIONS = ['description', 'examples', 'example']
/** Keywords whose values are data, not schemas. */
const DATA = ['example', 'examples', 'default', 'const', 'enum']

/**
 * Every schema with a `title` becomes `#/components/schemas/<title>` (innermost first). One title must
 * name one shape: a second, different schema under a taken title is a programming error and fails
 * the document. Top-level annotations may differ (the media object takes a body's first example).
 */
function hoist(node: unknown, components: Record<string, Json>): unknown {
  if (Array.isArray(node)) {
    node.forEach((child, i) => {
      node[i] = hoist(child, components)
    })
    return node
  }
  if (!node || typeof node !== 'object') return node
  const object = node as Json
  for (const key of Object.keys(object)) if (!DATA.includes(key)) object[key] = hoist(object[key], components)
  const title = object.title
  if (typeof title !== 'string' || !('type' in object || 'anyOf' in object || 'enum' in object)) return object
  const known = components[title]
  if (known && !isDeepStrictEqual(withoutAnnotations(known), withoutAnnotations(object))) {
    throw new Error(`Two different schemas are titled ${title}; give one of them another title`)
  }
  if (!known || (object.examples && !known.examples)) components[title] = object
  return { $ref: `#/components/schemas/${title}` }
}

function withoutAnnotations(schema: Json): Json {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => !ANNOTATIONS.includes(key)))
}

const sortedKeys = (record: Record<string, Json>) => Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)))
