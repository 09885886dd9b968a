import { createDeflateRaw, crc32, deflateRawSync } from 'node:zlib'

// Zip archives written byte by byte, so that they can be broken in ways no zip library will write:
// sizes that lie, bad compression streams, NUL in names, the same name twice. Each entry is stored
// (method 0) or deflated (method 8); the central directory repeats what the local header says.

export interface ZipEntry {
  /** The name's bytes as they go into the archive (a NUL stays a NUL). */
  name: string
  /** The compressed bytes: deflated for method 8, the content itself for method 0. */
  data: Buffer
  method: 0 | 8
  /** What the headers declare; a lie when it differs from what `data` inflates to. */
  size: number
  crc: number
}

/** An entry whose content is deflated (stored when empty). */
export function entry(name: string, content: string | Buffer): ZipEntry {
  const bytes = Buffer.from(content)
  if (bytes.length === 0) return { name, data: bytes, method: 0, size: 0, crc: 0 }
  return { name, data: deflateRawSync(bytes), method: 8, size: bytes.length, crc: crc32(bytes) }
}

/** An entry kept as it is (a zip inside a zip is already compressed). */
export const stored = (name: string, content: Buffer): ZipEntry => ({
  name,
  data: content,
  method: 0,
  size: content.length,
  crc: crc32(content),
})

/** The deflated form of `bytes` zero bytes, made a mebibyte at a time (never all in memory). */
export async function deflatedZeros(bytes: number): Promise<Buffer> {
  const deflate = createDeflateRaw({ level: 9 })
  const chunks: Buffer[] = []
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk))
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject))
  const block = Buffer.alloc(1024 * 1024)
  for (let left = bytes; left > 0; left -= block.length) {
    if (!deflate.write(left >= block.length ? block : block.subarray(0, left)))
      await new Promise((resolve) => deflate.once('drain', resolve))
  }
  deflate.end()
  await done
  return Buffer.concat(chunks)
}

/** A zero-filled entry of `bytes` bytes whose headers declare `declared` (the truth unless a lie is wanted). */
export async function zeros(name: string, bytes: number, declared = bytes): Promise<ZipEntry> {
  return { name, data: await deflatedZeros(bytes), method: 8, size: declared, crc: crc32(Buffer.alloc(Math.min(declared, bytes))) }
}

const DOS_DATE = ((2026 - 1980) << 9) | (1 << 5) | 1
const UTF8_NAMES = 0x0800

export function zip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8')
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(UTF8_NAMES, 6)
    local.writeUInt16LE(e.method, 8)
    local.writeUInt16LE(0, 10)
    local.writeUInt16LE(DOS_DATE, 12)
    local.writeUInt32LE(e.crc >>> 0, 14)
    local.writeUInt32LE(e.data.length, 18)
    local.writeUInt32LE(e.size, 22)
    local.writeUInt16LE(name.length, 26)
    local.writeUInt16LE(0, 28)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    local.copy(central, 8, 6, 30)
    central.writeUInt32LE(offset, 42)
    locals.push(local, name, e.data)
    centrals.push(central, name)
    offset += local.length + name.length + e.data.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}
