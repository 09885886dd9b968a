import { Readable } from 'node:stream'
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3'
import { createPresignedPost } from '@aws-sdk/s3-presigned-post'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import type { S3Config } from '../config.js'
import { attachment } from './content-disposition.js'
import type { Storage } from './storage-types.js'

/** How long /readyz waits for the bucket before calling it unreachable. */
export const READY_TIMEOUT_MS = 2000

// Presigners take a lifetime in seconds; the service decides an instant.
const secondsUntil = (instant: Date) => Math.max(1, Math.round((instant.getTime() - Date.now()) / 1000))

// A HEAD answer has no body to name the error: a missing object is only its 404.
const isMissing = (error: unknown) => error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404

// Copy sources are URL-encoded; a key's slashes stay.
const copySource = (bucket: string, key: string) => `${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`

/**
 * Upload content in an S3 bucket (AWS, MinIO or another S3-compatible service). Browsers write with a
 * presigned POST whose v4 policy holds the exact key, type and size; the service only reads, copies,
 * deletes and signs downloads.
 */
export function s3Storage(s3: S3Config): Storage {
  const client = new S3Client({
    region: s3.region,
    endpoint: s3.endpoint,
    forcePathStyle: s3.forcePathStyle,
    // A copy: the SDK marks the object it is given, and the configuration is frozen.
    credentials: s3.credentials && { ...s3.credentials },
    // Checksums only where S3 requires them: S3-compatible services often reject the SDK's newer default ones.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  })
  const Bucket = s3.bucket

  return {
    read(key, range) {
      const body = async function* () {
        const Range = range && `bytes=${range.start}-${range.end}`
        const { Body } = await client.send(new GetObjectCommand({ Bucket, Key: key, Range }))
        yield* Body as Readable
      }
      return Readable.from(body())
    },

    async stat(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }))
        return { size: head.ContentLength ?? 0, contentType: head.ContentType ?? null }
      } catch (error) {
        if (isMissing(error)) return null
        throw error
      }
    },

    async write(key, content, size) {
      // The content's failure, listened to before the request starts, ends the request: the SDK does not
      // give up on a body stream that fails mid-upload.
      const failed = new AbortController()
      let failure: unknown = null
      content.on('error', (error) => {
        failure ??= error
        failed.abort(error)
      })
      try {
        await client.send(new PutObjectCommand({ Bucket, Key: key, Body: content, ContentLength: size }), { abortSignal: failed.signal })
      } catch (error) {
        throw failure ?? error
      }
    },

    async copy(from, to) {
      await client.send(new CopyObjectCommand({ Bucket, Key: to, CopySource: copySource(Bucket, from) }))
    },

    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }))
    },

    async presignPost(key, rules) {
      const { url, fields } = await createPresignedPost(client, {
        Bucket,
        Key: key,
        Conditions: [['content-length-range', rules.size, rules.size], { 'Content-Type': rules.contentType }],
        Fields: { 'Content-Type': rules.contentType },
        Expires: secondsUntil(rules.expiresAt),
      })
      return { url, fields }
    },

    // Signing is local: a link to any key shows where the SDK points links (path-style, virtual-hosted, endpoint).
    async fileOrigin() {
      return new URL(await getSignedUrl(client, new GetObjectCommand({ Bucket, Key: 'origin' }), { expiresIn: 60 })).origin
    },

    presignGet(key, rules) {
      const command = new GetObjectCommand({
        Bucket,
        Key: key,
        ResponseContentType: rules.contentType,
        ResponseContentDisposition: attachment(rules.filename),
      })
      return getSignedUrl(client, command, { expiresIn: secondsUntil(rules.expiresAt) })
    },

    async ready() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }), { abortSignal: AbortSignal.timeout(READY_TIMEOUT_MS) })
        return true
      } catch {
        return false
      }
    },
  }
}
