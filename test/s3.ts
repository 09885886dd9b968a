import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3'
import S3rver from 's3rver'

/** s3rver's built-in account: it checks the access key exists, not v4 signatures. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }

export interface TestS3 {
  endpoint: string
  bucket: string
  /** The service's configuration for this bucket. */
  env: Record<string, string>
  client: S3Client
  close(): Promise<void>
}

/** An S3 server (s3rver) on a free loopback port, its files in a temporary directory, with one bucket made through the API. */
export async function startS3(bucket = 'seaworthy-test'): Promise<TestS3> {
  const directory = await mkdtemp(join(tmpdir(), 'seaworthy-s3-'))
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory })
  const { port } = await server.run()
  const endpoint = `http://127.0.0.1:${port}`
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: S3RVER_CREDENTIALS })
  await client.send(new CreateBucketCommand({ Bucket: bucket }))
  return {
    endpoint,
    bucket,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    },
    client,
    async close() {
      client.destroy()
      await server.close()
      await rm(directory, { recursive: true, force: true })
    },
  }
}
