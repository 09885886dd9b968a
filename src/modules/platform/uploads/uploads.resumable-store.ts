import { join } from 'node:path'
import { FileStore } from '@tus/file-store'
import { S3Store } from '@tus/s3-store'
import type { DataStore } from '@tus/server'
import type { Config } from '../../../config.js'
import type { Storage } from '../../../lib/storage.js'

/** How long an unfinished resumable upload waits for its bytes before the sweep drops it. */
export const RESUMABLE_DAYS = 7

/**
 * Where the bytes of a resumable (tus) upload arrive: at the upload's `incoming` key of the same store
 * the presigned POST writes (the data directory's uploads, or the bucket), so finalizing reads them
 * exactly as §5's. The transfer's state lives beside them in that store (a `.json` file; an S3
 * multipart upload with its `.info` and `.part` objects), never in one instance's memory: any instance
 * resumes an upload another began.
 */
export interface ResumableStore {
  datastore: DataStore
  /** Drops the transfer's own state once the object is complete (the object stays for finalizing). */
  forget(key: string): Promise<void>
  /** Drops an unfinished transfer: its bytes and its state. */
  discard(key: string): Promise<void>
}

// S3 multipart parts of 8 MiB: an upload of up to 25 MiB is a few parts; a smaller tail waits in `.part`.
const PART_BYTES = 8 * 1024 * 1024

export function resumableStore(config: Config, storage: Storage): ResumableStore {
  const removeAll = async (keys: string[]) => void (await Promise.all(keys.map((key) => storage.remove(key))))
  if (config.s3) {
    const { bucket, endpoint, region, forcePathStyle, credentials } = config.s3
    const datastore = new S3Store({
      partSize: PART_BYTES,
      // Expiry is the sweep's (by `resumable_until`), not bucket lifecycle rules keyed on tags.
      useTags: false,
      s3ClientConfig: {
        bucket,
        endpoint,
        region,
        forcePathStyle,
        credentials: credentials && { ...credentials },
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      },
    })
    return {
      datastore,
      forget: (key) => removeAll([`${key}.info`, `${key}.part`]),
      async discard(key) {
        // Aborting the multipart upload frees its stored parts; one never begun or already gone is no error.
        await datastore.remove(key).catch(() => undefined)
        await removeAll([key, `${key}.info`, `${key}.part`])
      },
    }
  }
  const datastore = new FileStore({ directory: join(config.dataDir, 'uploads') })
  return {
    datastore,
    forget: (key) => removeAll([`${key}.json`]),
    discard: (key) => removeAll([key, `${key}.json`]),
  }
}
