import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import * as addFormatsModule from 'ajv-formats'
import type { Static, TSchema } from 'typebox'

// ajv-formats ships CommonJS; its default export arrives one level down under NodeNext.
const addFormats = (addFormatsModule as any).default.default ?? (addFormatsModule as any).default

export type Loc = (string | number)[]
export interface ValidationIssue {
  loc: Loc
  msg: string
  type: string
}

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes: coerce,
    useDefaults: true,
    removeAdditional: false,
    strict: false,
    validateFormats: true,
  })
  addFormats(ajv, ['uuid', 'date', 'date-time', 'email', 'uri'])
  // Year 0000 passes the ISO pattern but PostgreSQL refuses it: a 422 here, never a 500 there.
  const isoDate = ajv.formats.date as { validate: (value: string) => boolean }
  ajv.addFormat('date', { type: 'string', validate: (value: string) => isoDate.validate(value) && !value.startsWith('0000') })
  return ajv
}

// Requests are validated strictly ("role": 5 is an error); their text parts are read as their declared
// types beforehand (declared-types.ts). Ajv's looser coercion only reads environment variables (config.ts).
const strictAjv = makeAjv(false)
const coercingAjv = makeAjv(true)

/** A UUID in any letter case, as the `uuid` format accepts it. */
export const isUuid = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)

/** A domain format (IMO number, country code): checked by Ajv so it is reported with every other problem. */
export function registerFormat(name: string, check: (value: string) => boolean, message: string): void {
  for (const ajv of [strictAjv, coercingAjv]) ajv.addFormat(name, { type: 'string', validate: check })
  FORMAT_TYPES[name] = ['value_error', message]
}

export function compileSchema(schema: unknown, coerce: boolean): ValidateFunction {
  return (coerce ? coercingAjv : strictAjv).compile(schema as object)
}

const FORMAT_TYPES: Record<string, [string, string]> = {
  uuid: ['uuid_parsing', 'Input should be a valid UUID'],
  date: ['date_parsing', 'Input should be a valid date in the format YYYY-MM-DD'],
  'date-time': ['datetime_parsing', 'Input should be a valid datetime'],
  email: ['value_error', 'value is not a valid email address'],
}

const TYPE_TYPES: Record<string, [string, string]> = {
  integer: ['int_parsing', 'Input should be a valid integer'],
  number: ['float_parsing', 'Input should be a valid number'],
  boolean: ['bool_parsing', 'Input should be a valid boolean'],
  string: ['string_type', 'Input should be a valid string'],
  array: ['list_type', 'Input should be a valid list'],
  object: ['model_type', 'Input should be a valid object'],
  null: ['none_required', 'Input should be None'],
}

function pathOf(instancePath: string): Loc {
  if (!instancePath) return []
  return instancePath
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p))
}

function describe(error: ErrorObject): [string, string] | null {
  const p = error.params as Record<string, any>
  switch (error.keyword) {
    case 'required':
      return ['missing', 'Field required']
    case 'format':
      return FORMAT_TYPES[p.format] ?? ['value_error', `Input should match format ${p.format}`]
    case 'enum': {
      const values = (p.allowedValues as unknown[]).filter((v) => v !== null).map((v) => `'${v}'`)
      return ['enum', `Input should be ${values.join(', ')}`]
    }
    case 'const':
      return ['literal_error', `Input should be '${p.allowedValue}'`]
    case 'maxLength':
      return ['string_too_long', `String should have at most ${p.limit} characters`]
    case 'minLength':
      return ['string_too_short', `String should have at least ${p.limit} characters`]
    case 'maxItems':
      return ['too_long', `List should have at most ${p.limit} items`]
    case 'minItems':
      return ['too_short', `List should have at least ${p.limit} items`]
    case 'minimum':
      return ['greater_than_equal', `Input should be greater than or equal to ${p.limit}`]
    case 'maximum':
      return ['less_than_equal', `Input should be less than or equal to ${p.limit}`]
    case 'exclusiveMinimum':
      return ['greater_than', `Input should be greater than ${p.limit}`]
    case 'pattern':
      return ['string_pattern_mismatch', 'String does not match the expected pattern']
    case 'additionalProperties':
      return ['extra_forbidden', 'Extra inputs are not permitted']
    case 'uniqueItems':
      return ['value_error', 'List items must be unique']
    case 'minProperties':
      return ['value_error', 'At least one field is required']
    case 'type': {
      const declared = (Array.isArray(p.type) ? p.type : String(p.type).split(',')).filter((t: string) => t !== 'null')
      return TYPE_TYPES[declared[0] ?? 'null'] ?? ['value_error', error.message ?? 'Invalid value']
    }
    case 'anyOf':
    case 'oneOf':
    case 'if':
      return null
    default:
      return ['value_error', error.message ?? 'Invalid value']
  }
}

/** Ajv errors as the contract's 422 items, one per problem, prefixed with the request part. */
export function toIssues(errors: ErrorObject[] | null | undefined, prefix: Loc): ValidationIssue[] {
  const issues: ValidationIssue[] = []
  const seen = new Set<string>()
  for (const error of errors ?? []) {
    const described = describe(error)
    if (!described) continue
    const loc = [...prefix, ...pathOf(error.instancePath)]
    if (error.keyword === 'required') loc.push((error.params as { missingProperty: string }).missingProperty)
    // A key that a closed map does not allow is reported at the key itself.
    if (error.keyword === 'additionalProperties') loc.push((error.params as { additionalProperty: string }).additionalProperty)
    const key = JSON.stringify(loc)
    if (seen.has(key)) continue
    seen.add(key)
    issues.push({ loc, type: described[0], msg: described[1] })
  }
  // A union that failed without a more specific error still has to be reported.
  if (issues.length === 0 && errors?.length) {
    issues.push({
      loc: [...prefix, ...pathOf(errors[0].instancePath)],
      type: 'value_error',
      msg: 'Invalid value',
    })
  }
  return issues
}

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: ValidationIssue[] }

export function createValidator<S extends TSchema>(schema: S, options: { coerce: boolean }) {
  const validate = compileSchema(schema, options.coerce)
  return (input: unknown): ValidationResult<Static<S>> => {
    const value = structuredClone(input)
    if (validate(value)) return { ok: true, value: value as Static<S> }
    return { ok: false, errors: toIssues(validate.errors, []) }
  }
}
