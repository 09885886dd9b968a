import { randomUUID } from 'node:crypto'
import type { App } from '../src/app.js'

// The served OpenAPI document as a list of operations, so table-driven tests cover every route,
// including routes added after the test was written.

export interface JsonSchema {
  type?: string | string[]
  format?: string
  anyOf?: JsonSchema[]
  properties?: Record<string, JsonSchema>
  items?: JsonSchema
  [keyword: string]: unknown
}

export interface Parameter {
  in: 'query' | 'path' | 'header'
  name: string
  required?: boolean
  schema: JsonSchema
}

export interface Operation {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'
  path: string
  parameters: Parameter[]
  jsonBody?: JsonSchema
  /** Request body schemas by content type. */
  bodies: Record<string, JsonSchema>
  /** Documented answers by status: the body schema by content type (none for a body-less 204). */
  responses: Record<string, Record<string, JsonSchema>>
}

/** The schema with every `#/components/schemas/…` reference replaced by the schema it names. */
export function inlined(node: unknown, schemas: Record<string, unknown>): any {
  if (Array.isArray(node)) return node.map((child) => inlined(child, schemas))
  if (!node || typeof node !== 'object') return node
  const ref = (node as { $ref?: string }).$ref
  if (ref) return inlined(schemas[ref.split('/').pop()!], schemas)
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, inlined(value, schemas)]))
}

export async function servedOperations(app: App): Promise<Operation[]> {
  const served = (await app.inject({ method: 'GET', url: '/openapi.json' })).json()
  const doc = { ...served, paths: inlined(served.paths, served.components?.schemas ?? {}) }
  return Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({
      method: method.toUpperCase() as Operation['method'],
      path,
      parameters: op.parameters ?? [],
      jsonBody: op.requestBody?.content?.['application/json']?.schema,
      bodies: Object.fromEntries(
        Object.entries(op.requestBody?.content ?? {}).map(([type, media]: [string, any]) => [type, media.schema ?? {}]),
      ),
      responses: Object.fromEntries(
        Object.entries(op.responses ?? {}).map(([status, answer]: [string, any]) => [
          status,
          Object.fromEntries(Object.entries(answer.content ?? {}).map(([type, media]: [string, any]) => [type, media.schema ?? {}])),
        ]),
      ),
    })),
  )
}

export const typesOf = (schema: JsonSchema): string[] => [schema.type ?? [], ...(schema.anyOf ?? []).map(typesOf)].flat(2)

/** The operation's URL: path parameters filled with a fresh UUID where one is expected, `overrides` as given. */
export function urlOf(op: Operation, overrides: { path?: Record<string, string>; query?: Record<string, string> } = {}): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (overrides.path && name in overrides.path) return encodeURIComponent(overrides.path[name])
    const schema = op.parameters.find((p) => p.in === 'path' && p.name === name)?.schema
    return schema?.format === 'uuid' ? randomUUID() : 'x'
  })
  const query = new URLSearchParams(overrides.query).toString().replace(/\+/g, '%20')
  return query ? `${path}?${query}` : path
}
