import { type RawBuilder, sql } from 'kysely'

// Casing at the edge: each module declares once, in its schemas file, which wire field is which
// column (`{ companyName: 'company_name', … }`); the functions below read that map both ways, in
// TypeScript and as SQL.

/** Wire field name → column name. */
type ColumnMap = Readonly<Record<string, string>>

/** The columns of a request body under `map`, keeping each field's type and optionality. */
type ColumnsOf<M extends ColumnMap, B> = { [K in keyof B as K extends keyof M ? M[K] : never]: B[K] }

/** The wire fields of a row under `map`. */
type FieldsOf<M extends ColumnMap, R extends { [C in M[keyof M]]: unknown }> = { [K in keyof M]: R[M[K]] }

/** The columns a request sets: an omitted field (undefined) is left out, an explicit null is kept (it clears). */
export function columnsOf<const M extends ColumnMap, B extends { [K in keyof M]?: unknown }>(map: M, body: B): ColumnsOf<M, B> {
  const columns: Record<string, unknown> = {}
  for (const [field, column] of Object.entries(map)) {
    const value = body[field]
    if (value !== undefined) columns[column] = value
  }
  return columns as ColumnsOf<M, B>
}

export function fieldsOf<const M extends ColumnMap, R extends { [C in M[keyof M]]: unknown }>(map: M, row: R): FieldsOf<M, R> {
  return Object.fromEntries(Object.entries(map).map(([field, column]) => [field, row[column as M[keyof M]]])) as FieldsOf<M, R>
}

/** The columns a request sets: an omitted field (undefined) is left out, an explicit null is kept (it clears). */
export const definedOnly = <T extends object>(columns: T): Partial<T> =>
  Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined)) as Partial<T>

/** The wire fields of `map` as SQL over the table or CTE `alias` (for JSON built by the database). */
export const fieldsSql = (map: ColumnMap, alias: string): Record<string, RawBuilder<unknown>> =>
  Object.fromEntries(Object.entries(map).map(([field, column]) => [field, sql.ref(`${alias}.${column}`)]))
