import { type Compilable, type CompiledQuery, createQueryId } from 'kysely'
import type { Db } from './database.js'

const NAME = Symbol('parameter')
type Placeholder = { [NAME]: string }
const placeholder = (name: string): Placeholder => ({ [NAME]: name })
const isPlaceholder = (value: unknown): value is Placeholder => typeof value === 'object' && value !== null && NAME in value

/** Binds the values of a statement compiled with placeholders, and runs it. */
async function run<O>(db: Db, compiled: CompiledQuery<O>, bound: (name: string) => unknown): Promise<O[]> {
  const parameters = compiled.parameters.map((value) => (isPlaceholder(value) ? bound(value[NAME]) : value))
  const { rows } = await db.executeQuery<O>({ ...compiled, parameters, queryId: createQueryId() })
  return rows
}

/**
 * A statement built by the query builder once and then executed with new values: building and
 * compiling a Kysely query costs tens of µs per statement, on every request of the hot paths.
 * `build` gets stand-ins for the values it binds (`params.orgId`…), so it must not branch on them or
 * compute with them; the result type is the builder's own. Compiled per Kysely instance (its
 * dialect and plugins); a transaction's instance is new each time, so there it compiles every time.
 */
export function compiledOnce<P extends Record<string, unknown>, O>(build: (db: Db, params: P) => Compilable<O>) {
  const cache = new WeakMap<Db, CompiledQuery<O>>()
  const placeholders = new Proxy({}, { get: (_, name) => placeholder(String(name)) }) as P
  return async (db: Db, values: P): Promise<O[]> => {
    let compiled = cache.get(db)
    if (!compiled) {
      compiled = build(db, placeholders).compile()
      cache.set(db, compiled)
    }
    return run(db, compiled, (name) => values[name])
  }
}

const isFields = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype

/**
 * The stand-ins of `value` at `path`, and its shape: a plain object stands in field by field (so its
 * fields, and whether each is there, shape the statement), null and undefined as themselves, and any
 * other value (text, a date, an array) as one placeholder.
 */
function standIn(value: unknown, path: string): { standIn: unknown; shape: string } {
  if (value === undefined || value === null) return { standIn: value, shape: String(value) }
  if (!isFields(value)) return { standIn: placeholder(path), shape: '$' }
  const fields = Object.keys(value).sort()
  const parts = fields.map((field) => standIn(value[field], path === '' ? field : `${path}.${field}`))
  return {
    standIn: Object.fromEntries(fields.map((field, i) => [field, parts[i].standIn])),
    shape: `{${fields.map((field, i) => `${field}:${parts[i].shape}`).join(',')}}`,
  }
}

const valueAt = (values: unknown, path: string) =>
  path.split('.').reduce((value, field) => (value as Record<string, unknown>)[field], values)

/**
 * As `compiledOnce`, for a statement whose text depends on which fields a request sends (a PATCH's
 * columns, the dates it checks): compiled once per shape of the values. Plain objects among them are
 * handed to `build` field by field, so `build` may branch on which fields are there, and on a field
 * being null, but never on a value.
 */
export function compiledPerShape<P extends object, O>(build: (db: Db, params: P) => Compilable<O>) {
  const cache = new WeakMap<Db, Map<string, CompiledQuery<O>>>()
  return async (db: Db, values: P): Promise<O[]> => {
    const { standIn: standIns, shape } = standIn(values, '')
    let shapes = cache.get(db)
    if (!shapes) {
      shapes = new Map()
      cache.set(db, shapes)
    }
    let compiled = shapes.get(shape)
    if (!compiled) {
      compiled = build(db, standIns as P).compile()
      shapes.set(shape, compiled)
    }
    return run(db, compiled, (name) => valueAt(values, name))
  }
}
