import { createHash } from 'node:crypto'

// The content libraries (some 45 MB resident together) load on the first upload, not at start:
// most instances serve far more reads than uploads.
const libraries = () => Promise.all([import('file-type'), import('image-size'), import('pdf-lib')])

export interface Inspection {
  sha256: string
  width: number | null
  height: number | null
  pageCount: number | null
  /** Set when the content fails a check; the upload is then rejected. */
  threatName: string | null
}

// An animated PNG is still a PNG.
const SAME_TYPE: Record<string, string> = { 'image/apng': 'image/png' }
// EXIF orientations that turn the picture a quarter: its displayed width is its stored height.
const QUARTER_TURNS = new Set([5, 6, 7, 8])

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

/** Sniffs the real type (it must be the declared one), hashes and measures the content. */
export async function inspect(content: Buffer, mime: string): Promise<Inspection> {
  const sha256 = createHash('sha256').update(content).digest('hex')
  const rejected = (threatName: string) => ({ sha256, width: null, height: null, pageCount: null, threatName })
  const [{ fileTypeFromBuffer }] = await libraries()
  const detected = (await fileTypeFromBuffer(content))?.mime
  if (!detected || (SAME_TYPE[detected] ?? detected) !== mime) return rejected('ContentTypeMismatch')
  try {
    return { sha256, ...(await measure(content, mime)), threatName: null }
  } catch {
    return rejected('MalformedContent')
  }
}
