import { createHash } from 'node:crypto'
import { badRequest } from './errors.js'

/** An attachment's bytes as a request carried them, keyed by the SHA-256 its statement names. */
export interface AttachmentContent {
  sha2: string
  contentType: string
  content: Buffer
}

const CRLF = Buffer.from('\r\n')
const HEADERS_END = Buffer.from('\r\n\r\n')

export const boundaryOf = (contentType: string) => /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType)?.slice(1).find(Boolean)

interface Part {
  headers: Record<string, string>
  body: Buffer
}

/** The parts of a multipart body (RFC 2046 §5.1): headers lower-cased, bodies as bytes. */
function splitParts(body: Buffer, boundary: string): Part[] {
  const delimiter = Buffer.from(`--${boundary}`)
  const parts: Part[] = []
  let at = body.indexOf(delimiter)
  if (at === -1) throw badRequest('multipart/mixed: no part starts with the boundary')
  while (true) {
    at += delimiter.length
    if (body.subarray(at, at + 2).toString() === '--') return parts
    at = body.indexOf(CRLF, at) + CRLF.length
    const next = body.indexOf(Buffer.concat([CRLF, delimiter]), at)
    if (next === -1 || at < CRLF.length) throw badRequest('multipart/mixed: a part does not end with the boundary')
    const raw = body.subarray(at, next)
    const split = raw.indexOf(HEADERS_END)
    const headerText = split === -1 ? raw.toString('utf8') : raw.subarray(0, split).toString('utf8')
    const headers: Record<string, string> = {}
    for (const line of headerText.split('\r\n')) {
      const colon = line.indexOf(':')
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
    }
    parts.push({ headers, body: split === -1 ? Buffer.alloc(0) : raw.subarray(split + HEADERS_END.length) })
    at = next + CRLF.length
  }
}

/**
 * A statement request in multipart/mixed (xAPI 1.0.3 §2.1.11): the statements as the first part
 * (application/json), then one part per attachment with its SHA-256 in X-Experience-API-Hash.
 */
export function readStatementParts(body: Buffer, contentType: string): { statements: unknown; attachments: AttachmentContent[] } {
  const boundary = boundaryOf(contentType)
  if (!boundary) throw badRequest('multipart/mixed needs a boundary')
  const [first, ...rest] = splitParts(body, boundary)
  if (!first?.headers['content-type']?.toLowerCase().startsWith('application/json')) {
    throw badRequest('multipart/mixed: the first part must be the statements as application/json')
  }
  let statements: unknown
  try {
    statements = JSON.parse(first.body.toString('utf8'))
  } catch {
    throw badRequest('multipart/mixed: the first part is not JSON')
  }
  const attachments = rest.map((part, index) => {
    const sha2 = part.headers['x-experience-api-hash']
    if (!sha2) throw badRequest(`multipart/mixed: part ${index + 2} has no X-Experience-API-Hash`)
    if (part.headers['content-transfer-encoding']?.toLowerCase() !== 'binary') {
      throw badRequest(`multipart/mixed: part ${index + 2} needs Content-Transfer-Encoding: binary`)
    }
    if (createHash('sha256').update(part.body).digest('hex') !== sha2.toLowerCase()) {
      throw badRequest(`multipart/mixed: part ${index + 2} does not match its X-Experience-API-Hash`)
    }
    return { sha2: sha2.toLowerCase(), contentType: part.headers['content-type'] ?? 'application/octet-stream', content: part.body }
  })
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
