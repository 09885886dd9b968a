import { type Compilable, type CompiledQuery, createQueryId } from 'kysely'
import type { Db } from './database.js'

/*
 * Statements built by Kysely once and then run with new values. Building and compiling a query costs
 * tens of µs per statement on every request of the hot paths; here it is paid once per statement
 * (once per shape of its values), and each run only binds the values.
 *
 * A query function stays an ordinary Kysely builder, `(db, params) => query`, wrapped where it is
 * exported: `export const findX = compiledOnce((db, p: { orgId: string }) => db.selectFrom(…)…)`.
 *
 * The rules, each enforced here (test/compiled.test.ts), so a builder that breaks one fails loudly:
 *   1. The builder only places its values into the query; it never looks at them. It gets stand-ins,
 *      which throw when read, compared by order, converted or iterated (`p.ids.length`, `p.n > 1`,
 *      `${p.name}`, `[...p.ids]`): compute such things before the call and pass them in.
 *   2. A branch on a value (`p.kind === 'x' ? …`, `if (p.flag)`) cannot be seen by a stand-in: the
 *      first time a shape is built, it is also built with the real values, and a different statement
 *      text throws. (compiledPerShape may branch on which fields of a plain object are present and on a
 *      field being null: those make the shape.)
 *   3. A statement is compiled per Kysely instance (its dialect and plugins); a transaction's instance
 *      is new each time, so inside one it is compiled on every run.
 */

const NAME = Symbol('parameter')
/** Property reads Kysely makes to tell a value from an expression; they find nothing on a stand-in. */
const PROBES = new Set(['toOperationNode', 'expressionType', 'expression', 'alias', 'dynamicReference', 'isSelectQueryBuilder', 'then'])

export class BuilderReadsValue extends Error {}

/** A stand-in for the value bound at `name`: it can be placed into a query and nothing else. */
function placeholder(name: string): object {
  const refuse = (use: string): never => {
    throw new BuilderReadsValue(`A compiled statement's builder ${use} the value of "${name}"; compute it before the call (db/compiled.ts)`)
  }
  return new Proxy(Object.create(null), {
    get: (_, key) => {
      if (key === NAME) return name
      if (key === Symbol.toPrimitive) return () => refuse('converts or compares')
      if (key === Symbol.iterator) return refuse('iterates')
      if (typeof key === 'symbol' || PROBES.has(key)) return undefined
      return refuse(`reads .${key} of`)
    },
    has: (_, key) => key === NAME,
    set: () => refuse('writes to'),
  })
}

const nameOf = (value: unknown): string | undefined =>
  typeof value === 'object' && value !== null ? (value as { [NAME]?: string })[NAME] : undefined

/** A statement compiled with stand-ins, and where each of its parameters comes from: a value's path, or a constant. */
interface Prepared<O> {
  compiled: CompiledQuery<O>
  paths: (string[] | undefined)[]
}

function prepared<O>(compiled: CompiledQuery<O>): Prepared<O> {
  return { compiled, paths: compiled.parameters.map((value) => nameOf(value)?.split('.')) }
}

const valueAt = (values: unknown, path: string[]) => path.reduce((value, field) => (value as Record<string, unknown>)[field], values)

/** Binds the values of a statement compiled with placeholders, and runs it. */
async function run<O>(db: Db, { compiled, paths }: Prepared<O>, values: unknown): Promise<O[]> {
  const parameters = paths.map((path, i) => (path === undefined ? compiled.parameters[i] : valueAt(values, path)))
  const { rows } = await db.executeQuery<O>({ ...compiled, parameters, queryId: createQueryId() })
  return rows
}

/** Rule 2: the statement built with the real values must read as the one built with stand-ins. */
function checkNoBranch(compiled: CompiledQuery, real: CompiledQuery, shape: string): void {
  if (compiled.sql !== real.sql) {
    throw new BuilderReadsValue(
      `A compiled statement's builder branches on a value (shape ${shape}): its text differs with the real values (db/compiled.ts)`,
    )
  }
}

/**
 * A statement whose text never depends on its values (rules above). `params` are flat: each field is
 * one bound value.
 */
export function compiledOnce<P extends Record<string, unknown>, O>(build: (db: Db, params: P) => Compilable<O>) {
  const cache = new WeakMap<Db, Prepared<O>>()
  const placeholders = new Proxy({}, { get: (_, name) => placeholder(String(name)) }) as P
  let checked = false
  return async (db: Db, values: P): Promise<O[]> => {
    let statement = cache.get(db)
    if (!statement) {
      const compiled = build(db, placeholders).compile()
      if (!checked) checkNoBranch(compiled, build(db, values).compile(), '{}')
      checked = true
      statement = prepared(compiled)
      cache.set(db, statement)
    }
    return run(db, statement, values)
  }
}

const isFields = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype

/**
 * The stand-ins of `value` at `path`: a plain object stands in field by field (so its fields, and
 * whether each is there, shape the statement), null and undefined as themselves, and any other value
 * (text, a date, an array) as one placeholder. `ordered` is the value with its fields in the stand-ins'
 * order, for rule 2's comparison.
 */
function standIn(value: unknown, path: string): { standIn: unknown; ordered: unknown } {
  if (value === undefined || value === null) return { standIn: value, ordered: value }
  if (!isFields(value)) return { standIn: placeholder(path), ordered: value }
  const fields = Object.keys(value).sort()
  const parts = fields.map((field) => standIn(value[field], path === '' ? field : `${path}.${field}`))
  return {
    standIn: Object.fromEntries(fields.map((field, i) => [field, parts[i].standIn])),
    ordered: Object.fromEntries(fields.map((field, i) => [field, parts[i].ordered])),
  }
}

/** Which fields of the plain objects among the values are there, and which are null: what a statement is compiled per. */
function shapeOf(value: unknown): string {
  if (value === undefined || value === null) return String(value)
  if (!isFields(value)) return '$'
  let shape = ''
  for (const field of Object.keys(value).sort()) shape += `${shape === '' ? '' : ','}${field}:${shapeOf(value[field])}`
  return `{${shape}}`
}

/**
 * As `compiledOnce`, for a statement whose text depends on which fields a request sends (a PATCH's
 * columns, the dates it checks): compiled once per shape of the values. Plain objects among them are
 * handed to `build` field by field, so `build` may branch on which fields are there, and on a field
 * being null, but never on a value.
 */
export function compiledPerShape<P extends object, O>(build: (db: Db, params: P) => Compilable<O>) {
  const cache = new WeakMap<Db, Map<string, Prepared<O>>>()
  const checked = new Set<string>()
  return async (db: Db, values: P): Promise<O[]> => {
    const shape = shapeOf(values)
    let shapes = cache.get(db)
    if (!shapes) {
      shapes = new Map()
      cache.set(db, shapes)
    }
    let statement = shapes.get(shape)
    if (!statement) {
      const { standIn: standIns, ordered } = standIn(values, '')
      const compiled = build(db, standIns as P).compile()
      if (!checked.has(shape)) checkNoBranch(compiled, build(db, ordered as P).compile(), shape)
      checked.add(shape)
      statement = prepared(compiled)
      shapes.set(shape, statement)
    }
    return run(db, statement, values)
  }
}
