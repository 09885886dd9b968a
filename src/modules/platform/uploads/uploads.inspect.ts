import { createHash } from 'node:crypto'

// The content libraries (some 45 MB resident together) load on the first upload, not at start:
// most instances serve far more reads than uploads.
const libraries = () => Promise.all([import('file-type'), import('image-size'), import('pdf-lib')])

export interface Inspection {
  sha256: string
  /** The bytes read, which are the bytes hashed. */
  size: number
  width: number | null
  height: number | null
  pageCount: number | null
  /** Set when the content fails a check; the upload is then rejected. */
  threatName: string | null
}

// An animated PNG is still a PNG; XML is XML whichever of its two media types was declared.
const SAME_TYPE: Record<string, string> = { 'image/apng': 'image/png', 'application/xml': 'text/xml' }
// A course package's content is checked by its import (modules/learning/packages), not measured here.
const MEASURED = new Set(['application/pdf', 'image/jpeg', 'image/png'])
// EXIF orientations that turn the picture a quarter: its displayed width is its stored height.
const QUARTER_TURNS = new Set([5, 6, 7, 8])
// Type sniffing needs the first 4100 bytes; image-size reads no more than 512 KiB of a file itself.
const HEAD_BYTES = 512 * 1024

async function measure(content: Buffer, mime: string): Promise<Pick<Inspection, 'width' | 'height' | 'pageCount'>> {
  const [, { imageSize }, { PDFDocument }] = await libraries()
  if (mime === 'application/pdf') {
    const pdf = await PDFDocument.load(content, { ignoreEncryption: true, updateMetadata: false })
    return { width: null, height: null, pageCount: pdf.getPageCount() }
  }
  const { width, height, orientation } = imageSize(content)
  const turned = orientation !== undefined && QUARTER_TURNS.has(orientation)
  return { width: turned ? height : width, height: turned ? width : height, pageCount: null }
}

/** Hashes all of the content as it streams by and keeps only what inspection reads: the head, or everything. */
async function take(content: AsyncIterable<Uint8Array>, whole: boolean) {
  const hash = createHash('sha256')
  const kept: Uint8Array[] = []
  let size = 0
  for await (const chunk of content) {
    hash.update(chunk)
    if (whole || size < HEAD_BYTES) kept.push(chunk)
    size += chunk.length
  }
  const bytes = Buffer.concat(kept)
  return { sha256: hash.digest('hex'), size, bytes: whole ? bytes : bytes.subarray(0, HEAD_BYTES) }
}

// XML needs no declaration, and without one file-type does not name it: a first tag after optional
// white space (and a UTF-8 byte order mark) is taken as markup; the import parses it fully.
const startsAsMarkup = (bytes: Buffer) => /^(\uFEFF)?\s*</.test(bytes.subarray(0, 1024).toString('utf8'))

async function inspectStream(content: AsyncIterable<Uint8Array>, mime: string, whole: boolean): Promise<Inspection> {
  const { sha256, size, bytes } = await take(content, whole)
  const rejected = (threatName: string) => ({ sha256, size, width: null, height: null, pageCount: null, threatName })
  const [{ fileTypeFromBuffer }] = await libraries()
  const detected = (await fileTypeFromBuffer(bytes))?.mime ?? (startsAsMarkup(bytes) ? 'application/xml' : undefined)
  if (!detected || (SAME_TYPE[detected] ?? detected) !== mime) return rejected('ContentTypeMismatch')
  if (!MEASURED.has(mime)) return { sha256, size, width: null, height: null, pageCount: null, threatName: null }
  try {
    return { sha256, size, ...(await measure(bytes, mime)), threatName: null }
  } catch {
    return rejected('MalformedContent')
  }
}

// pdf-lib reads a PDF whole, in memory. One at a time per process keeps that to one file's worth
// (UPLOAD_MAX_BYTES) however many uploads are finalized at once; images need only their head.
let pdfTurn: Promise<unknown> = Promise.resolve()

/**
 * Sniffs the real type (it must be the declared one), hashes and measures the content, reading it once
 * as a stream from `open` (called when its turn comes).
 */
export function inspect(open: () => AsyncIterable<Uint8Array>, mime: string): Promise<Inspection> {
  if (mime !== 'application/pdf') return inspectStream(open(), mime, false)
  const result = pdfTurn.then(() => inspectStream(open(), mime, true))
  pdfTurn = result.catch(() => undefined)
  return result
}
