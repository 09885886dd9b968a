import { expect } from 'vitest'

// Raw edits of a zip that yazl made, for the archives no zip tool writes (APPNOTE 4.3.7, 4.3.12).
const LOCAL = 0x04034b50
const CENTRAL = 0x02014b50

/** Offsets of every record with `signature` whose name (at `nameAt`, length at `lengthAt`) is `name`. */
function records(zip: Buffer, signature: number, nameAt: number, lengthAt: number, name: string): number[] {
  const found: number[] = []
  for (let at = 0; at + nameAt <= zip.length; at++) {
    if (zip.readUInt32LE(at) !== signature) continue
    const length = zip.readUInt16LE(at + lengthAt)
    if (zip.subarray(at + nameAt, at + nameAt + length).toString('latin1') === name) found.push(at)
  }
  expect(found, `one record of ${name}`).toHaveLength(1)
  return found
}

const centralRecord = (zip: Buffer, name: string) => records(zip, CENTRAL, 46, 28, name)[0]

/** Where the entry's compressed data starts. */
function dataStart(zip: Buffer, name: string): number {
  const at = records(zip, LOCAL, 30, 26, name)[0]
  return at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28)
}

/** The entry's deflate data made invalid from its first byte (a final block of the reserved type 11). */
export function corruptDeflate(zip: Buffer, name: string): Buffer {
  const copy = Buffer.from(zip)
  copy[dataStart(copy, name)] = 0xff
  return copy
}

/** The entry's declared compressed size cut to `bytes`: the deflate stream ends before its last block. */
export function truncateEntry(zip: Buffer, name: string, bytes: number): Buffer {
  const copy = Buffer.from(zip)
  copy.writeUInt32LE(bytes, centralRecord(copy, name) + 20)
  return copy
}

/** The entry's declared (central directory) uncompressed size replaced with `size`. */
export function lieAboutSize(zip: Buffer, name: string, size: number): Buffer {
  const copy = Buffer.from(zip)
  copy.writeUInt32LE(size, centralRecord(copy, name) + 24)
  return copy
}

/** A manifest-shaped document whose elements nest `depth` deep (the root counted). */
export const nestedXml = (depth: number) =>
  `<?xml version="1.0"?>\n<manifest identifier="m">${'<item>'.repeat(depth - 1)}${'</item>'.repeat(depth - 1)}</manifest>\n`
