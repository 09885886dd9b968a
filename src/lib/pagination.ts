import { type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely'
import { isoSql } from './dates.js'
import { invalid } from './errors.js'
import { isUuid } from './validation.js'

// Opaque keyset cursors: the sort key of the last item, base64url-encoded JSON.
export type CursorKey = [string, string]

export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url')
}

export function decodeCursor(raw: string | undefined): CursorKey | null {
  return decodeCursorOf(raw, isSortKey)
}

/** A cursor whose key `isKey` accepts; anything else is a 422 at `["query","cursor"]`. */
export function decodeCursorOf(raw: string | undefined, isKey: (key: CursorKey) => boolean): CursorKey | null {
  if (raw === undefined || raw === '') return null
  try {
    const key = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'))
    if (Array.isArray(key) && key.length === 2 && key.every((v) => typeof v === 'string') && isKey(key as CursorKey)) {
      return key as CursorKey
    }
  } catch {
    // falls through to the 422 below
  }
  throw invalid(['query', 'cursor'], 'Invalid cursor', 'value_error')
}

/**
 * A timestamp column as cursor text, to the microsecond: rows written by one statement are microseconds
 * apart, and a key cut to the millisecond (JavaScript's Date) would skip rows at a page boundary.
 */
export const microsecondText = (column: string) => isoSql(sql.ref(column), 'US')

/** Only the exact forms the service writes (microseconds, or milliseconds as earlier cursors had): anything else JavaScript can parse, PostgreSQL may not. */
function isSortKey([first, id]: CursorKey): boolean {
  const time = Date.parse(first)
  if (!isUuid(id) || Number.isNaN(time)) return false
  return new Date(time).toISOString() === first || /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(first)
}

/** A (date, id) key of a list ordered by a calendar date; `infinity` stands for "no date" where that sorts last. */
export function isDateKey([date, id]: CursorKey, allowInfinity = false): boolean {
  if (allowInfinity && date === 'infinity') return isUuid(id)
  if (!isUuid(id) || !/^\d{4}-\d{2}-\d{2}$/.test(date) || date.startsWith('0000')) return false
  const time = Date.parse(`${date}T00:00:00Z`)
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(date)
}

/** Rows strictly after the cursor in (sortColumn, id) order, descending or ascending. */
export function afterCursor(sortColumn: string, idColumn: string, key: CursorKey, direction: 'desc' | 'asc'): RawBuilder<SqlBool> {
  const op = sql.raw(direction === 'desc' ? '<' : '>')
  return sql<SqlBool>`(${sql.ref(sortColumn)}, ${sql.ref(idColumn)}) ${op} (${key[0]}::timestamptz, ${key[1]}::uuid)`
}

export interface PageResult<T> {
  items: T[]
  nextCursor: string | null
  hasMore: boolean
  totalCount: number | null
}

/** Rows were fetched with limit + 1: the extra row only says whether another page exists. */
export function toPage<R, T>(
  rows: R[],
  limit: number,
  keyOf: (row: R) => CursorKey,
  map: (row: R) => T,
  totalCount: number | null = null,
): PageResult<T> {
  const hasMore = rows.length > limit
  const pageRows = hasMore ? rows.slice(0, limit) : rows
  return {
    items: pageRows.map(map),
    nextCursor: hasMore ? encodeCursor(keyOf(pageRows[pageRows.length - 1])) : null,
    hasMore,
    totalCount,
  }
}

/**
 * One page of a newest-first list: `filtered` carries the tenant scope and filters, `select`
 * the columns. The count (only when asked) runs over the same filters.
 */
export async function newestFirstPage<DB, TB extends keyof DB, R extends { id: string }, T>(
  filtered: SelectQueryBuilder<DB, TB, {}>,
  select: (qb: SelectQueryBuilder<DB, TB, {}>) => SelectQueryBuilder<DB, TB, R>,
  table: string,
  query: { limit: number; cursor?: string; include_count?: boolean },
  map: (row: R) => T,
): Promise<PageResult<T>> {
  const cursor = decodeCursor(query.cursor)
  let page = (select(filtered) as SelectQueryBuilder<any, any, R>)
    .select(microsecondText(`${table}.created_at`).as('cursor_at'))
    .orderBy(`${table}.created_at`, 'desc')
    .orderBy(`${table}.id`, 'desc')
    .limit(query.limit + 1)
  if (cursor) page = page.where(afterCursor(`${table}.created_at`, `${table}.id`, cursor, 'desc'))
  const [rows, count] = await Promise.all([
    page.execute(),
    query.include_count
      ? (filtered as SelectQueryBuilder<any, any, {}>).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()
      : null,
  ])
  return toPage(rows, query.limit, (r) => [r.cursor_at, r.id], map, count ? count.n : null)
}
