import { type Compilable, type CompiledQuery, createQueryId } from 'kysely'
import type { Db } from './database.js'

const NAME = Symbol('parameter')
type Placeholder = { [NAME]: string }
const isPlaceholder = (value: unknown): value is Placeholder => typeof value === 'object' && value !== null && NAME in value

/**
 * A statement built by the query builder once and then executed with new values: building and
 * compiling a Kysely query costs tens of µs per statement, on every request of the hot paths.
 * `build` gets stand-ins for the values it binds (`params.orgId`…), so it must not branch on them or
 * compute with them; the result type is the builder's own. Compiled per Kysely instance (its
 * dialect and plugins); a transaction's instance is new each time, so there it compiles every time.
 */
export function compiledOnce<P extends Record<string, unknown>, O>(build: (db: Db, params: P) => Compilable<O>) {
  const cache = new WeakMap<Db, CompiledQuery<O>>()
  const placeholders = new Proxy({}, { get: (_, name) => ({ [NAME]: String(name) }) }) as P
  return async (db: Db, values: P): Promise<O[]> => {
    let compiled = cache.get(db)
    if (!compiled) {
      compiled = build(db, placeholders).compile()
      cache.set(db, compiled)
    }
    const parameters = compiled.parameters.map((value) => (isPlaceholder(value) ? values[value[NAME]] : value))
    const { rows } = await db.executeQuery<O>({ ...compiled, parameters, queryId: createQueryId() })
    return rows
  }
}
