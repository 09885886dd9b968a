import type { Readable } from 'node:stream'

/**
 * Listens to the stream's errors at once, before a write awaits anything (a directory, a file, a
 * connection): an error emitted while nothing listens ends the process. The stream is destroyed with
 * it, so the pipeline attached later fails with that error instead of waiting for an end.
 */
export function settleOnError(content: Readable): void {
  content.on('error', (error) => content.destroy(error))
}

/** A browser form upload: POST `fields`, then the file as `file`, to `url` (S3's presigned POST). */
export interface PresignedPost {
  url: string
  fields: Record<string, string>
}

export interface PostRules {
  contentType: string
  /** The exact size the stored object must have. */
  size: number
  expiresAt: Date
}

export interface DownloadRules {
  contentType: string
  filename: string
  expiresAt: Date
}

export interface StoredObject {
  size: number
  /** The type stored with the object; null where the store keeps none (local disk). */
  contentType: string | null
}

export interface ByteRange {
  start: number
  end: number
}

/** Where upload content lives: local disk (the embedded default) or an S3 bucket (storage-s3.ts). */
export interface Storage {
  /** The content as a stream, or the bytes `start`..`end` of it (inclusive); a missing object fails the stream. */
  read(key: string, range?: ByteRange): Readable
  stat(key: string): Promise<StoredObject | null>
  /** Writes `content`, exactly `size` bytes, under `key` as one object, streamed; it becomes visible only once complete. */
  write(key: string, content: Readable, size: number): Promise<void>
  /** Copies `from` to `to`; `to` becomes visible only once complete. Fails when `from` is missing. */
  copy(from: string, to: string): Promise<void>
  remove(key: string): Promise<void>
  /** A signed form upload that can only write `key`, with exactly that type and size, until it expires. */
  presignPost(key: string, rules: PostRules): Promise<PresignedPost>
  /** A signed URL that downloads `key` until it expires. */
  presignGet(key: string, rules: DownloadRules): Promise<string>
  /**
   * The origin the signed links point to when it is not the service's own (an S3 bucket's host): the
   * console's CSP lets its previews load from there. Null for the embedded store.
   */
  fileOrigin(): Promise<string | null>
  /** Whether the store can be reached (for /readyz). */
  ready(): Promise<boolean>
}
