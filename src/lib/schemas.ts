import Type, { type Static, type TSchema } from 'typebox'

// Shared wire schemas: ids, dates, errors, the list envelope. Declared once, used everywhere.
export const Uuid = Type.String({ format: 'uuid' })
export const DateString = Type.String({
  format: 'date',
  examples: ['2026-06-15'],
})
export const DateTime = Type.String({ format: 'date-time' })

/**
 * `T | null`, as a JSON Schema type list (OpenAPI 3.1) so errors stay about the field itself. A named
 * schema (one with a `title`, a component of the OpenAPI document) stays itself, next to `null`.
 */
export function Nullable<T extends TSchema>(schema: T) {
  const s = schema as Record<string, any>
  if (s.title) return Type.Unsafe<Static<T> | null>({ anyOf: [s, { type: 'null' }] })
  const widened = s.enum ? { ...s, enum: [...s.enum, null] } : { ...s, type: [s.type, 'null'] }
  return Type.Unsafe<Static<T> | null>(widened)
}

export const ErrorBody = Type.Object({ detail: Type.String() }, { title: 'ErrorBody', examples: [{ detail: 'Ship not found' }] })
export const ValidationErrorBody = Type.Object(
  {
    detail: Type.Array(
      Type.Object({
        loc: Type.Array(Type.Union([Type.String(), Type.Integer()])),
        msg: Type.String(),
        type: Type.String(),
      }),
    ),
  },
  { title: 'HTTPValidationError', examples: [{ detail: [{ loc: ['body', 'imoNumber'], msg: 'Field required', type: 'missing' }] }] },
)

export const IdParams = <K extends string>(name: K) => Type.Object({ [name]: Uuid } as { [P in K]: typeof Uuid })

export const ListQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
  cursor: Type.Optional(Type.String()),
  search: Type.Optional(Type.String({ maxLength: 200 })),
  include_count: Type.Boolean({ default: false }),
})
export type ListQuery = Static<typeof ListQuery>

/** A list envelope; named `<Item>Page` in the OpenAPI document, its example built from the item's. */
export function Page<T extends TSchema>(item: T) {
  const { title, examples } = item as { title?: string; examples?: unknown[] }
  return Type.Object(
    {
      items: Type.Array(item),
      nextCursor: Nullable(Type.String()),
      hasMore: Type.Boolean({ default: false }),
      totalCount: Nullable(Type.Integer()),
    },
    {
      ...(title && { title: `${title}Page` }),
      ...(examples && { examples: [{ items: examples.slice(0, 1), nextCursor: null, hasMore: false, totalCount: null }] }),
    },
  )
}

export const NoContent = Type.Null({ description: 'No content' })
