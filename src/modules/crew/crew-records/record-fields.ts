import Type, { type TSchema } from 'typebox'

// A record's wire fields, each declared once with its column and its TypeBox types; its request and
// response properties and its wire-field → column maps (src/lib/columns.ts) are read off the list, so a
// field cannot be in one and missing from the other. The list's order is the schemas' property order.

/** A wire field: its column (none for one computed when read) and its type in requests (none for one they never set) and responses. */
export interface Field {
  column?: string
  input?: TSchema
  output: TSchema
}
type Fields = Readonly<Record<string, Field>>
type Settable = { column: string; input: TSchema }

/** A field requests set: `input` as sent, `output` as responses show it where that differs (a format or length checked on input only). */
export const field = <const C extends string>(column: C, input: TSchema, output: TSchema = input) => ({ column, input, output })
/** A field the system stores and responses show, never a request. */
export const systemField = <const C extends string>(column: C, output: TSchema) => ({ column, output })
/** A field responses show, computed from the row when it is read. */
export const computedField = (output: TSchema): Field => ({ output })

const entries = (fields: Fields, keep: (field: Field) => boolean) => Object.entries(fields).filter(([, field]) => keep(field))
const settable = (field: Field) => field.input !== undefined

type RequestColumns<F extends Fields> = { readonly [K in keyof F as F[K] extends Settable ? K : never]: F[K]['column'] }
type SystemColumns<F extends Fields> = {
  readonly [K in keyof F as F[K] extends Settable ? never : F[K]['column'] extends string ? K : never]: F[K]['column']
}

/** The fields a request may set, wire name → column. */
export const requestColumns = <const F extends Fields>(fields: F) =>
  Object.fromEntries(entries(fields, settable).map(([wire, field]) => [wire, field.column])) as RequestColumns<F>

/** The stored fields only the system sets, wire name → column. */
export const systemColumns = <const F extends Fields>(fields: F) =>
  Object.fromEntries(
    entries(fields, (field) => !settable(field) && field.column !== undefined).map(([wire, field]) => [wire, field.column]),
  ) as SystemColumns<F>

/** A request's properties: every settable field, each optional (a PATCH sends only what changes). */
export const requestProperties = (fields: Fields) =>
  Object.fromEntries(entries(fields, settable).map(([wire, field]) => [wire, Type.Optional(field.input as TSchema)]))

/** A response's properties: every field. */
export const responseProperties = (fields: Fields) =>
  Object.fromEntries(Object.entries(fields).map(([wire, field]) => [wire, field.output]))
