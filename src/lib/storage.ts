import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, rename, rm, stat } from 'node:fs/promises'
import { dirname, join, resolve, sep } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { Config } from '../config.js'

/** Where upload content lives. The local driver is the embedded default; an S3 driver implements the same. */
export interface Storage {
  /** Writes the stream under key; the write becomes visible only once complete. */
  put(key: string, content: Readable): Promise<{ size: number }>
  read(key: string): Readable
  size(key: string): Promise<number | null>
  remove(key: string): Promise<void>
}

export function localStorage(root: string): Storage {
  const pathOf = (key: string) => {
    const full = resolve(root, key)
    if (!full.startsWith(resolve(root) + sep)) throw new Error('storage key escapes the storage root')
    return full
  }
  return {
    async put(key, content) {
      const target = pathOf(key)
      await mkdir(dirname(target), { recursive: true })
      const partial = `${target}.partial-${process.pid}-${Date.now()}`
      try {
        await pipeline(content, createWriteStream(partial))
        await rename(partial, target)
      } catch (error) {
        await rm(partial, { force: true })
        throw error
      }
      return { size: (await stat(target)).size }
    },
    read: (key) => createReadStream(pathOf(key)),
    async size(key) {
      try {
        return (await stat(pathOf(key))).size
      } catch {
        return null
      }
    },
    remove: (key) => rm(pathOf(key), { force: true }),
  }
}

export function createStorage(config: Config): Storage {
  return localStorage(join(config.dataDir, 'uploads'))
}
