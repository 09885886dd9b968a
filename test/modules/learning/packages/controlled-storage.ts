import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import type { Config } from '../../../../src/config.js'
import { embeddedSigning, type LocalStorage, localStorage } from '../../../../src/lib/storage.js'

/**
 * The embedded store with two faults a test can turn on for the keys under a prefix (an organization's):
 * reads that never end (a store that stops answering mid-stream), and writes that fail as an unreachable
 * store's do. Each hanging read is kept, to see that the import let go of it.
 */
export class ControlledStorage {
  hangReadsUnder: string | null = null
  failWritesUnder: string | null = null
  readonly hanging: PassThrough[] = []
  failedWrites = 0
  private waiting: (() => void)[] = []

  storage = (config: Config): LocalStorage => {
    const local = localStorage(join(config.dataDir, 'uploads'), embeddedSigning(config))
    return {
      ...local,
      read: (key, range) => {
        if (!this.hangReadsUnder || !key.startsWith(this.hangReadsUnder)) return local.read(key, range)
        const stream = new PassThrough()
        this.hanging.push(stream)
        for (const wake of this.waiting.splice(0)) wake()
        return stream
      },
      write: async (key, content, size) => {
        if (!this.failWritesUnder || !key.startsWith(this.failWritesUnder)) return local.write(key, content, size)
        this.failedWrites++
        content.destroy()
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9000'), { code: 'ECONNREFUSED' })
      },
    }
  }

  /** Resolves once a read hangs. */
  readHangs(): Promise<PassThrough> {
    const next = this.hanging.length
    return new Promise((resolve) => {
      const check = () => (this.hanging.length > next ? resolve(this.hanging[next]) : this.waiting.push(check))
      check()
    })
  }
}

/** Resolves once the stream is destroyed. */
export const closed = (stream: PassThrough) => new Promise<void>((resolve) => (stream.destroyed ? resolve() : stream.once('close', resolve)))
