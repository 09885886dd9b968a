/**
 * Query strings, paths and headers are text. They are read as their declared types here, exactly as
 * the contract allows (DECISIONS §9): integers are decimal digits with an optional leading `-`,
 * booleans `true`/`false`/`1`/`0` (numbers, none declared yet, are decimals with an optional fraction
 * and exponent). Anything else stays text, so the strict validator reports it as
 * `int_parsing` / `bool_parsing`; Ajv's own coercion (which reads `1e1`, `+5` or ` 5`) is never used.
 */
type Scalar = 'integer' | 'number' | 'boolean'
const SCALARS: Scalar[] = ['integer', 'number', 'boolean']

const READERS: Record<Scalar, (text: string) => number | boolean | undefined> = {
  integer: (text) => (/^-?\d+$/.test(text) ? Number(text) : undefined),
  number: (text) => (/^-?\d+(\.\d+)?(e[-+]?\d+)?$/i.test(text) ? Number(text) : undefined),
  boolean: (text) => (text === 'true' || text === '1' ? true : text === 'false' || text === '0' ? false : undefined),
}

interface JsonSchema {
  type?: string | string[]
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  enum?: unknown[]
  const?: unknown
  items?: JsonSchema
  properties?: Record<string, JsonSchema>
}

/** Every JSON type a schema admits, through unions, enums and literals. */
function typesOf(schema: JsonSchema): Set<string> {
  const types = new Set<string>([schema.type ?? []].flat())
  for (const member of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) for (const t of typesOf(member)) types.add(t)
  for (const value of schema.enum ?? ('const' in schema ? [schema.const] : [])) {
    if (typeof value === 'number') types.add(Number.isInteger(value) ? 'integer' : 'number')
    else types.add(value === null ? 'null' : typeof value)
  }
  return types
}

/** The scalar types a text value may be read as; none when the schema takes text as it is. */
function scalarsOf(schema: JsonSchema): Scalar[] {
  const types = typesOf(schema)
  return types.has('string') ? [] : SCALARS.filter((s) => types.has(s))
}

function read(value: unknown, scalars: Scalar[]): unknown {
  if (typeof value !== 'string') return value
  for (const scalar of scalars) {
    const typed = READERS[scalar](value)
    if (typed !== undefined) return typed
  }
  return value
}

/** Converts a part's declared integer, number and boolean values (also items of repeated parameters) in place. */
export function declaredTypesReader(schema: unknown): ((values: Record<string, unknown>) => void) | null {
  const plan = Object.entries((schema as JsonSchema).properties ?? {})
    .map(([name, property]) => ({ name, scalars: scalarsOf(property), items: scalarsOf(property.items ?? {}) }))
    .filter((p) => p.scalars.length || p.items.length)
  if (plan.length === 0) return null
  return (values) => {
    for (const { name, scalars, items } of plan) {
      const value = values[name]
      if (value === undefined) continue
      values[name] = Array.isArray(value) ? value.map((item) => read(item, items)) : read(value, scalars)
    }
  }
}
