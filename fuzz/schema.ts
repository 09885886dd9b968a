import fc from 'fast-check'
import type { JsonSchema } from '../test/served-routes.js'
import { deepValue, NASTY_JSON, nastyString } from './nasty.js'

// Values for a JSON schema of the served document: `valid` ones, and `mixed` ones where any node may
// be replaced by something it does not admit. Nothing here knows a route: ids are told apart by the
// field's name (`user_id`, `shipId`, `assignmentIds` → user, ship, assignment), formats by their name.

/** An id of some kind, chosen when the request is sent: ids are made by the server as the run goes. */
export class IdRef {
  constructor(
    readonly kind: string,
    /** 0–99: which pool (the caller's organization, the caller, another organization, none). */
    readonly source: number,
    readonly pick: number,
  ) {}
}

/** Several ids joined by commas (a `uuid-list` query parameter). */
export class IdList {
  constructor(readonly refs: IdRef[]) {}
}

/** A value the server has answered before (a user's e-mail, a list's cursor), or `fallback`. */
export class Known {
  constructor(
    readonly kind: string,
    readonly pick: number,
    readonly fallback: unknown,
  ) {}
}

/** The password of every user the fuzzer seeds, so some generated logins succeed. */
export const KNOWN_PASSWORD = 'fuzz password 0123456789'

/** `user_id`, `userId`, `userIds` → `user`; `next_of_kin_id` → `next_of_kin`. */
export const kindOf = (name: string) =>
  name
    .replace(/(_ids?|Ids?)$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()

export type Mode = 'valid' | 'mixed'

const idRef = (name: string) =>
  fc.record({ source: fc.integer({ min: 0, max: 99 }), pick: fc.nat() }).map(({ source, pick }) => new IdRef(kindOf(name), source, pick))

const DAY = 86_400_000
const aDate = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: -800, max: 800 }).map((days) => new Date(Date.UTC(2026, 10, 23) + days * DAY)) },
  { weight: 1, arbitrary: fc.date({ min: new Date('1950-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }) },
)

const imoNumber = fc.integer({ min: 0, max: 999_999 }).map((n) => {
  const base = String(n).padStart(6, '0')
  return base + ([...base].reduce((sum, digit, i) => sum + Number(digit) * (7 - i), 0) % 10)
})

const word = (minLength: number, maxLength: number, letters = 'abcdefghijklmnopqrstuvwxyz ABCXYZ0123456789-') =>
  fc.string({ unit: fc.constantFrom(...letters), minLength, maxLength })

/** Valid values of the formats the document uses; an unknown format gets plain text. */
const FORMATS: Record<string, (name: string) => fc.Arbitrary<unknown>> = {
  uuid: idRef,
  'uuid-list': (name) => fc.array(idRef(name), { minLength: 1, maxLength: 3 }).map((refs) => new IdList(refs)),
  date: () => aDate.map((d) => d.toISOString().slice(0, 10)),
  'date-time': () => aDate.map((d) => d.toISOString()),
  email: () =>
    fc
      .tuple(word(1, 16, 'abcxyz0123456789._-'), fc.constantFrom('example.test', 'Example.COM'))
      .map(([local, domain]) => `${local}@${domain}`),
  'imo-number': () =>
    fc.oneof(
      imoNumber,
      imoNumber.map((n) => `IMO ${n}`),
    ),
  'country-code': () => fc.constantFrom('GB', 'NO', 'NOR', 'us', 'deu', 'PHL', 'gr', 'UA'),
  'package-relative-path': () => fc.stringMatching(/^[a-z0-9_-]{1,8}(\/[a-z0-9_-]{1,8}){0,3}\.html?$/),
}

function text(schema: JsonSchema, name: string): fc.Arbitrary<unknown> {
  // E-mails the server knows make logins succeed and creations conflict.
  if (name === 'email' || name === 'username') return fc.oneof(FORMATS.email(name), known('email', FORMATS.email(name)))
  if (schema.format && FORMATS[schema.format as string]) return FORMATS[schema.format as string](name)
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern as string))
  const min = (schema.minLength as number | undefined) ?? 0
  const max = Math.min((schema.maxLength as number | undefined) ?? 60, min + 60)
  const plain = fc.oneof(
    { weight: 6, arbitrary: word(Math.max(min, 1), Math.max(max, 1)) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: min, maxLength: max }) },
    { weight: 1, arbitrary: fc.constant('x'.repeat((schema.maxLength as number | undefined) ?? max)) },
  )
  if (name === 'password') return fc.oneof(fc.constant(KNOWN_PASSWORD), plain)
  if (name === 'cursor') return known('cursor', plain)
  return plain
}

const known = (kind: string, fallback: fc.Arbitrary<unknown>) =>
  fc.tuple(fc.nat(), fallback).map(([pick, value]) => new Known(kind, pick, value))

function typesOf(schema: JsonSchema): string[] {
  if (schema.type) return [schema.type].flat()
  if (schema.properties) return ['object']
  if (schema.items) return ['array']
  return []
}

function ofType(type: string, schema: JsonSchema, name: string, mode: Mode): fc.Arbitrary<unknown> {
  const num = (key: string, fallback: number) => (schema[key] as number | undefined) ?? fallback
  switch (type) {
    case 'string':
      return text(schema, name)
    case 'integer': {
      const [min, max] = [num('minimum', -(2 ** 31)), num('maximum', 2 ** 31)]
      return fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max))
    }
    case 'number':
      return fc.double({ min: num('minimum', -1e9), max: num('maximum', 1e9), noNaN: true, noDefaultInfinity: true })
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array': {
      const minLength = num('minItems', 0)
      const options = { minLength, maxLength: Math.min(num('maxItems', minLength + 4), minLength + 4) }
      const item = value(schema.items ?? {}, name, mode)
      // Distinct ids: consecutive picks from each pool, so a small pool still gives distinct ones.
      if (schema.uniqueItems && schema.items?.format === 'uuid' && mode === 'valid') {
        const sources = fc.array(fc.integer({ min: 0, max: 99 }), options)
        return fc.tuple(sources, fc.nat()).map(([each, pick]) => each.map((source, i) => new IdRef(kindOf(name), source, pick + i)))
      }
      return schema.uniqueItems ? fc.uniqueArray(item, { ...options, selector: (v) => JSON.stringify(v) }) : fc.array(item, options)
    }
    case 'object':
      return object(schema, mode)
    default:
      return fc.jsonValue({ maxDepth: 2 })
  }
}

function object(schema: JsonSchema, mode: Mode): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {}
  const shape = Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, value(property, key, mode)]))
  const required = ((schema.required as string[] | undefined) ?? []).filter((key) => key in properties)
  const documented = fc.record(shape, { requiredKeys: required })
  if (mode === 'valid') return documented
  // Mixed: a required field may be missing, and fields the document does not know may come along.
  const loose = fc.record(shape, { requiredKeys: [] })
  const extras = fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), nastyString), fc.oneof(fc.jsonValue({ maxDepth: 2 }), deepValue), {
    maxKeys: 3,
  })
  return fc
    .tuple(fc.oneof({ weight: 4, arbitrary: documented }, { weight: 1, arbitrary: loose }), fc.option(extras, { freq: 4 }))
    .map(([fields, extra]) => ({ ...extra, ...fields }))
}

/** Something this schema does not admit (or sometimes does, at its very edge). */
export function invalid(schema: JsonSchema, name: string): fc.Arbitrary<unknown> {
  const types = typesOf(schema)
  const options: fc.Arbitrary<unknown>[] = [fc.constantFrom(...NASTY_JSON), nastyString, fc.constantFrom(...NASTY_JSON), nastyString]
  const limit = (key: string) => schema[key] as number | undefined
  if (types.includes('string')) {
    const [min, max] = [limit('minLength'), limit('maxLength')]
    if (max !== undefined) options.push(fc.constant('x'.repeat(max + 1)))
    if (min) options.push(fc.constant('x'.repeat(min - 1)))
    if (schema.enum) options.push(fc.constantFrom(...(schema.enum as unknown[]).map((v) => ` ${String(v).toUpperCase()}`)))
  }
  if (types.includes('integer') || types.includes('number')) {
    const [min, max] = [limit('minimum'), limit('maximum')]
    options.push(fc.constantFrom(...[min === undefined ? -1 : min - 1, max === undefined ? 2 ** 63 : max + 1, 2.5, '7']))
  }
  if (types.includes('array')) {
    const item = value(schema.items ?? {}, name, 'valid')
    const max = limit('maxItems')
    if (max !== undefined && max < 5000) options.push(fc.array(item, { minLength: max + 1, maxLength: max + 1 }))
    options.push(
      fc.constant([]),
      fc.array(item, { minLength: 1, maxLength: 2 }).map((items) => [...items, ...items]),
    )
  }
  options.push(deepValue)
  return fc.oneof(...options)
}

/** A value for `schema` (named `name` in its parent): valid, or in mixed mode possibly not. */
export function value(schema: JsonSchema, name: string, mode: Mode): fc.Arbitrary<unknown> {
  const shaped = shapedValue(schema, name, mode)
  return mode === 'valid' ? shaped : fc.oneof({ weight: 8, arbitrary: shaped }, { weight: 1, arbitrary: invalid(schema, name) })
}

function shapedValue(schema: JsonSchema, name: string, mode: Mode): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const)
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]))
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined
  if (branches?.length) return fc.oneof(...branches.map((branch) => value(branch, name, mode)))
  const types = typesOf(schema)
  if (types.length === 0) return fc.jsonValue({ maxDepth: 2 })
  return fc.oneof(...types.map((type) => ({ weight: type === 'null' ? 1 : 4, arbitrary: ofType(type, schema, name, mode) })))
}
