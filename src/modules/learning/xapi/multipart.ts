import { createHash } from 'node:crypto'
import {
  MaxFileSizeExceededError,
  MaxHeaderSizeExceededError,
  MaxPartsExceededError,
  MaxTotalSizeExceededError,
  type MultipartHeaders,
  MultipartParseError,
  MultipartParser,
  type MultipartPart,
} from '@remix-run/multipart-parser'
import type { XapiLimits } from '../../../config.js'
import { badRequest } from './errors.js'

/** An attachment's bytes as a request carried them, keyed by the SHA-256 its statement names. */
export interface AttachmentContent {
  sha2: string
  contentType: string
  content: Buffer
}

const CRLF = Buffer.from('\r\n')

/** A statement request in multipart/mixed as it streamed in: the first part's bytes (the statements), then the attachments. */
export interface StatementParts {
  statements: Buffer
  attachments: AttachmentContent[]
}

/** Each part's headers, at most (DECISIONS §13.7). */
const MAX_PART_HEADER_BYTES = 8192
/** How a body already in memory (the alternate request syntax's content) is fed to the parser. */
const CHUNK_BYTES = 65536

export const boundaryOf = (contentType: string) => /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType)?.slice(1).find(Boolean)

export function* chunksOf(body: Buffer): Generator<Buffer> {
  for (let at = 0; at < body.length; at += CHUNK_BYTES) yield body.subarray(at, at + CHUNK_BYTES)
}

/**
 * The body from its first boundary on, its bytes counted against the limit. What comes before the first
 * boundary is RFC 2046's preamble (some clients send a CRLF there, ADL's conformance suite among them):
 * dropped, up to the size of a part's headers.
 */
async function* fromFirstBoundary(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, boundary: string, maxBodyBytes: number) {
  const atStart = Buffer.from(`--${boundary}`)
  const afterLine = Buffer.from(`\r\n--${boundary}`)
  let head: Buffer | null = Buffer.alloc(0)
  let received = 0
  for await (const chunk of chunks) {
    received += chunk.length
    if (received > maxBodyBytes) throw badRequest(`multipart/mixed: the request is larger than ${maxBodyBytes} bytes`)
    if (head === null) {
      yield chunk
      continue
    }
    head = Buffer.concat([head, chunk])
    const line = head.subarray(0, MAX_PART_HEADER_BYTES + afterLine.length).indexOf(afterLine)
    const at = head.subarray(0, atStart.length).equals(atStart) ? 0 : line === -1 ? -1 : line + 2
    if (at >= 0) {
      yield head.subarray(at)
      head = null
    } else if (head.length > MAX_PART_HEADER_BYTES) throw badRequest('multipart/mixed: no part starts with the boundary')
  }
  if (head?.length) yield head
}

/** Whether the parser has read the closing boundary: what follows is the epilogue, ignored (RFC 2046 §5.1.1). */
function closed(parser: MultipartParser): boolean {
  try {
    parser.finish()
    return true
  } catch {
    return false
  }
}

/** A part's headers; the parser refuses bytes that are not UTF-8 with a TypeError, which is the client's error here. */
function headersOf(part: MultipartPart, n: number): MultipartHeaders {
  try {
    return part.headers
  } catch {
    throw badRequest(`multipart/mixed: the headers of part ${n} are not UTF-8`)
  }
}

function statementsOf(part: MultipartPart): Buffer {
  if (!headersOf(part, 1)['content-type']?.toLowerCase().startsWith('application/json')) {
    throw badRequest('multipart/mixed: the first part must be the statements as application/json')
  }
  return Buffer.concat(part.content)
}

/** An attachment part (number `n`, 1 being the statements): binary, and the SHA-256 it names is its content's. */
function attachmentOf(part: MultipartPart, n: number): AttachmentContent {
  const headers = headersOf(part, n)
  const sha2 = headers['x-experience-api-hash']?.toLowerCase()
  if (!sha2) throw badRequest(`multipart/mixed: part ${n} has no X-Experience-API-Hash`)
  if (headers['content-transfer-encoding']?.toLowerCase() !== 'binary') {
    throw badRequest(`multipart/mixed: part ${n} needs Content-Transfer-Encoding: binary`)
  }
  const content = Buffer.concat(part.content)
  if (createHash('sha256').update(content).digest('hex') !== sha2) {
    throw badRequest(`multipart/mixed: part ${n} does not match its X-Experience-API-Hash`)
  }
  return { sha2, contentType: headers['content-type'] ?? 'application/octet-stream', content }
}

function limitCrossed(error: MultipartParseError, limits: XapiLimits): string {
  if (error instanceof MaxPartsExceededError) return `more than ${limits.maxAttachments} attachments`
  if (error instanceof MaxHeaderSizeExceededError) return `a part's headers are longer than ${MAX_PART_HEADER_BYTES} bytes`
  if (error instanceof MaxFileSizeExceededError || error instanceof MaxTotalSizeExceededError) {
    return `the request is larger than ${limits.maxBodyBytes} bytes`
  }
  return error.message
}

/**
 * A statement request in multipart/mixed (xAPI 1.0.3 §2.1.11): the statements as the first part
 * (application/json), then one part per attachment with its SHA-256 in X-Experience-API-Hash. Read
 * as the body streams in, each part checked as it completes: the first limit crossed (parts, a part's
 * headers, the request's bytes) or the first bad part ends the read with a 400.
 */
export async function readStatementParts(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  contentType: string,
  limits: XapiLimits,
): Promise<StatementParts> {
  const boundary = boundaryOf(contentType)
  if (!boundary) throw badRequest('multipart/mixed needs a boundary')
  const parser = new MultipartParser(boundary, {
    maxHeaderSize: MAX_PART_HEADER_BYTES,
    maxParts: limits.maxAttachments + 1,
    maxFileSize: limits.maxBodyBytes,
    maxTotalSize: limits.maxBodyBytes,
  })
  let statements: Buffer | undefined
  const attachments: AttachmentContent[] = []
  try {
    for await (const chunk of fromFirstBoundary(chunks, boundary, limits.maxBodyBytes)) {
      if (closed(parser)) continue
      for (const part of parser.write(chunk)) {
        if (statements === undefined) statements = statementsOf(part)
        else attachments.push(attachmentOf(part, attachments.length + 2))
      }
    }
    parser.finish()
  } catch (error) {
    throw error instanceof MultipartParseError ? badRequest(`multipart/mixed: ${limitCrossed(error, limits)}`) : error
  }
  if (statements === undefined) throw badRequest('multipart/mixed: no part carries the statements')
  return { statements, attachments }
}

/** A statement answer with its attachments, as multipart/mixed. */
export function writeStatementParts(json: unknown, attachments: readonly AttachmentContent[], boundary: string): Buffer {
  const chunks: Buffer[] = [Buffer.from(`--${boundary}\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(json)}\r\n`)]
  for (const attachment of attachments) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Type: ${attachment.contentType}\r\nContent-Transfer-Encoding: binary\r\nX-Experience-API-Hash: ${attachment.sha2}\r\n\r\n`,
      ),
      attachment.content,
      CRLF,
    )
  }
  chunks.push(Buffer.from(`--${boundary}--`))
  return Buffer.concat(chunks)
}
