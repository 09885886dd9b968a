import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { copyFile, mkdir, open, rename, rm, stat } from 'node:fs/promises'
import { dirname, join, resolve, sep } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { Config } from '../config.js'
import { forbidden } from './errors.js'
import { s3Storage } from './storage-s3.js'
import { type DownloadRules, type PostRules, type PresignedPost, type Storage, settleOnError } from './storage-types.js'

export type { ByteRange, DownloadRules, PostRules, PresignedPost, Storage, StoredObject } from './storage-types.js'

/** The local driver also takes writes: the embedded POST target stores the form's file through it. */
export interface LocalStorage extends Storage {
  /** Writes the stream under key; the write becomes visible only once complete, and a failed one leaves nothing. */
  put(key: string, content: Readable): Promise<{ size: number }>
}

export const isLocalStorage = (storage: Storage): storage is LocalStorage => 'put' in storage

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

/** Runs `write` into a temporary file beside `target`, then renames it into place; a failure leaves nothing. */
async function writeAtomically(target: string, write: (partial: string) => Promise<unknown>): Promise<void> {
  await mkdir(dirname(target), { recursive: true })
  const partial = `${target}.partial-${randomUUID()}`
  try {
    await write(partial)
    await rename(partial, target)
  } catch (error) {
    await rm(partial, { force: true })
    throw error
  }
}

export function localStorage(root: string, signing: EmbeddedSigning): LocalStorage {
  const pathOf = (key: string) => {
    const full = resolve(root, key)
    if (!full.startsWith(resolve(root) + sep)) throw new Error('storage key escapes the storage root')
    return full
  }
  return {
    async put(key, content) {
      settleOnError(content)
      // The file is opened before the stream runs: a stream that fails at once cannot create it after the cleanup.
      await writeAtomically(pathOf(key), async (partial) => pipeline(content, (await open(partial, 'wx')).createWriteStream()))
      return { size: (await stat(pathOf(key))).size }
    },
    async write(key, content) {
      await this.put(key, content)
    },
    read: (key, range) => createReadStream(pathOf(key), range),
    async stat(key) {
      try {
        // A folder is no object (as in a bucket): reading it would fail after the answer has begun.
        const found = await stat(pathOf(key))
        return found.isFile() ? { size: found.size, contentType: null } : null
      } catch {
        return null
      }
    },
    copy: (from, to) => writeAtomically(pathOf(to), (partial) => copyFile(pathOf(from), partial)),
    remove: (key) => rm(pathOf(key), { force: true }),
    presignPost: async (key, rules) => signing.presignPost(key, rules),
    presignGet: async (key, rules) => signing.presignGet(key, rules),
    // Links point to the service itself.
    fileOrigin: async () => null,
    // The data directory is this process's own disk: nothing to reach.
    ready: async () => true,
  }
}

export function createStorage(config: Config): Storage {
  if (config.s3) return s3Storage(config.s3)
  return localStorage(join(config.dataDir, 'uploads'), embeddedSigning(config))
}
