import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, open, rename, rm, stat } from 'node:fs/promises'
import { dirname, join, resolve, sep } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { Config } from '../config.js'
import { forbidden } from './errors.js'

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

/** Where upload content lives. The local driver is the embedded default; an S3 driver implements the same. */
export interface Storage {
  /** Writes the stream under key; the write becomes visible only once complete, and a failed one leaves nothing. */
  put(key: string, content: Readable): Promise<{ size: number }>
  read(key: string): Readable
  size(key: string): Promise<number | null>
  remove(key: string): Promise<void>
  /** A signed form upload that can only write `key`, with exactly that type and size, until it expires. */
  presignPost(key: string, rules: PostRules): PresignedPost
  /** A signed URL that downloads `key` until it expires. */
  presignGet(key: string, rules: DownloadRules): string
}

// The embedded driver's own endpoints (served by the uploads module), which check what it signs.
export const EMBEDDED_POST_PATH = '/api/v1/shared/uploads/target'
export const EMBEDDED_GET_PATH = '/api/v1/shared/uploads/object'
export const SIGNATURE_FIELD = 'x-seaworthy-signature'

export interface PostGrant {
  key: string
  minBytes: number
  maxBytes: number
}

export interface DownloadQuery {
  key: string
  expires: number
  type: string
  filename: string
  signature: string
}

const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text).digest()

function sameSignature(expected: Buffer, given: string): boolean {
  const actual = Buffer.from(given, 'hex')
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

type Condition = Record<string, string> | [string, number, number]

function readPolicy(policy: string): { expiration: string; conditions: Condition[] } {
  try {
    return JSON.parse(Buffer.from(policy, 'base64').toString('utf8'))
  } catch {
    throw forbidden('Malformed policy')
  }
}

/**
 * Signs and checks the embedded driver's presigned POSTs and downloads the way S3 does: an HMAC over a
 * base64 policy (expiration, exact key and type, content-length-range) and over the download's terms.
 * Keys are derived from the service secret, one per purpose.
 */
export function embeddedSigning(config: Pick<Config, 'jwtSecret' | 'publicUrl'>) {
  const postKey = hmac(config.jwtSecret, 'seaworthy:upload-post')
  const getKey = hmac(config.jwtSecret, 'seaworthy:upload-get')
  const downloadTerms = (q: Omit<DownloadQuery, 'signature'>) => JSON.stringify([q.key, q.expires, q.type, q.filename])

  return {
    presignPost(key: string, rules: PostRules): PresignedPost {
      const conditions: Condition[] = [{ key }, { 'Content-Type': rules.contentType }, ['content-length-range', rules.size, rules.size]]
      const policy = Buffer.from(JSON.stringify({ expiration: rules.expiresAt.toISOString(), conditions })).toString('base64')
      const fields = { key, 'Content-Type': rules.contentType, policy, [SIGNATURE_FIELD]: hmac(postKey, policy).toString('hex') }
      return { url: `${config.publicUrl}${EMBEDDED_POST_PATH}`, fields }
    },

    /** Checks the form fields (names lower-cased) against their signed policy; 403 like S3 otherwise. */
    checkPost(fields: Record<string, string>): PostGrant {
      const { policy, [SIGNATURE_FIELD]: signature } = fields
      if (!policy || !signature || !sameSignature(hmac(postKey, policy), signature)) throw forbidden('Invalid policy signature')
      const { expiration, conditions } = readPolicy(policy)
      if (!(Date.parse(expiration) > Date.now())) throw forbidden('Policy expired')
      const grant = { key: fields.key, minBytes: 0, maxBytes: 0 }
      for (const condition of conditions) {
        if (Array.isArray(condition)) [, grant.minBytes, grant.maxBytes] = condition
        else
          for (const [name, value] of Object.entries(condition)) {
            if (fields[name.toLowerCase()] !== value) throw forbidden(`Policy condition failed: ${name}`)
          }
      }
      return grant
    },

    presignGet(key: string, rules: DownloadRules): string {
      const terms = { key, expires: Math.floor(rules.expiresAt.getTime() / 1000), type: rules.contentType, filename: rules.filename }
      const signature = hmac(getKey, downloadTerms(terms)).toString('hex')
      const query = new URLSearchParams({ ...terms, expires: String(terms.expires), signature })
      return `${config.publicUrl}${EMBEDDED_GET_PATH}?${query}`
    },

    checkGet(query: DownloadQuery): void {
      if (!sameSignature(hmac(getKey, downloadTerms(query)), query.signature)) throw forbidden('Invalid signature')
      if (query.expires * 1000 <= Date.now()) throw forbidden('Link expired')
    },
  }
}

export type EmbeddedSigning = ReturnType<typeof embeddedSigning>

export function localStorage(root: string, signing: EmbeddedSigning): Storage {
  const pathOf = (key: string) => {
    const full = resolve(root, key)
    if (!full.startsWith(resolve(root) + sep)) throw new Error('storage key escapes the storage root')
    return full
  }
  return {
    async put(key, content) {
      const target = pathOf(key)
      await mkdir(dirname(target), { recursive: true })
      const partial = `${target}.partial-${randomUUID()}`
      // Created before the copy starts: a stream that opens its file lazily could create it after a
      // failed copy's cleanup, leaving the partial file behind.
      const file = await open(partial, 'wx')
      try {
        await pipeline(content, file.createWriteStream())
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
    presignPost: signing.presignPost,
    presignGet: signing.presignGet,
  }
}

export function createStorage(config: Config): Storage {
  return localStorage(join(config.dataDir, 'uploads'), embeddedSigning(config))
}
