import { pipeline, Readable } from 'node:stream'
import { Negotiator } from '@fastify/accept-negotiator'
import { stringify } from 'csv-stringify'
import type { FastifyReply, FastifyRequest } from 'fastify'
import Type, { type TArray, type TObject } from 'typebox'
import { attachment } from './content-disposition.js'
import type { PageResult } from './pagination.js'

/**
 * CSV exports of lists (DECISIONS §12). A list route opts in with two things: `format: ExportFormat`
 * in its query schema (which also documents the text/csv answer, lib/openapi.ts) and a handler that
 * answers through `listOrCsv`. The CSV holds every row its filters match (no paging), read a batch at a time through
 * the list's own keyset pages and streamed as it is written, so memory stays flat however many rows
 * there are; RFC 4180 (quoted where needed, CRLF), a header row of the wire field names.
 */

export const ExportFormat = Type.Optional(
  Type.Enum(['json', 'csv'], { description: 'csv: every matching row as text/csv, no paging (the same as Accept: text/csv)' }),
)

/** Whether a route exports CSV: its query schema takes `format: ExportFormat`. */
export const exportsCsv = (querystring: unknown) => (querystring as TObject | undefined)?.properties?.format === ExportFormat

/** An item's fields, in order; an item made of parts (`allOf`, as the audit event and its names) has each part's. */
const fieldsOf = (item: TObject | { allOf: TObject[] }): string[] =>
  'allOf' in item ? item.allOf.flatMap(fieldsOf) : Object.keys(item.properties)

/** The OpenAPI 200 of a list that exports CSV: its JSON page, or the CSV text with the item's fields as the header row. */
export function jsonOrCsv(page: TObject) {
  const header = fieldsOf((page.properties.items as TArray<TObject>).items).join(',')
  return {
    description: 'OK: a page of the list, or every matching row as CSV',
    content: {
      'application/json': { schema: page },
      'text/csv': { schema: { type: 'string', description: `RFC 4180; the header row is ${header}` }, example: `${header}\r\n` },
    },
  }
}

// Rows read per statement: the largest page a client may ask for.
const BATCH = 1000
const negotiator = new Negotiator({ supportedValues: ['application/json', 'text/csv'] })

/** `?format=` decides when given; else the Accept header, JSON when it prefers neither. */
function wantsCsv(request: FastifyRequest, format: ListQuery['format']): boolean {
  if (format) return format === 'csv'
  return negotiator.negotiate(request.headers.accept ?? '*/*') === 'text/csv'
}

/** A cell beginning like a formula (`=`, `+`, `-`, `@`) is shown as text by a spreadsheet, not run. */
const guarded = (text: string) => (/^[=+\-@]/.test(text) ? `'${text}` : text)

/** The wire values as cells: dates as on the wire, lists comma-separated, nested objects as JSON. */
const cast = {
  string: guarded,
  boolean: (value: boolean) => String(value),
  date: (value: Date) => value.toISOString(),
  object: (value: object) => guarded(Array.isArray(value) ? value.join(',') : JSON.stringify(value)),
}

interface ListQuery {
  limit: number
  cursor?: string
  include_count?: boolean
  format?: 'json' | 'csv'
}

export interface CsvList<Q extends ListQuery, T> {
  /** The file name offered to the client, without `.csv`. */
  name: string
  /** The item schema: its properties, in order, are the columns. */
  item: TObject
  /** The request's query: its filters apply to the CSV too; its paging does not. */
  query: Q
  /** The list's page function; called again with each page's cursor until the last. */
  list: (query: Q) => Promise<PageResult<T>>
  /** Columns to leave out (fields the request did not ask for). */
  omit?: string[]
}

/** Answers a list route: its JSON page, or the whole list as CSV when the client asks for that. */
export async function listOrCsv<Q extends ListQuery, T>(
  request: FastifyRequest,
  reply: FastifyReply,
  { name, item, query, list, omit = [] }: CsvList<Q, T>,
): Promise<PageResult<T> | undefined> {
  if (!wantsCsv(request, query.format)) return list(query)
  const all = { ...query, limit: BATCH, cursor: undefined, include_count: false }
  // The first batch is read before answering, so a bad filter or an unreachable database is still a proper error.
  const first = await list(all)
  async function* rows() {
    let page = first
    for (;;) {
      yield* page.items
      if (!page.nextCursor) return
      page = await list({ ...all, cursor: page.nextCursor })
    }
  }
  const columns = Object.keys(item.properties).filter((column) => !omit.includes(column))
  const csv = stringify({ header: true, columns, record_delimiter: '\r\n', cast })
  // A failure mid-stream can no longer change the status: the response is cut short and the error logged.
  pipeline(Readable.from(rows()), csv, (error) => error && request.log.error({ err: error }, 'CSV export failed'))
  // Awaiting the reply waits for the response to end, so Fastify does not answer a second time.
  await reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', attachment(`${name}.csv`))
    .send(csv)
}
