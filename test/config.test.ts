import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../src/config.js'

describe('configuration', () => {
  it('stops with one line naming the bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATA_DIR: '/tmp/x' })).toThrow(
      new ConfigError('Invalid configuration: PORT Input should be a valid integer'),
    )
    expect(() => loadConfig({ EXPIRING_SOON_DAYS: '-1', SEAWORTHY_JWT_SECRET: 'x'.repeat(40) })).toThrow(/EXPIRING_SOON_DAYS/)
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x', SEAWORTHY_JWT_SECRET: 'x'.repeat(40) })).toThrow(/DATABASE_URL/)
  })

  it('requires SEAWORTHY_JWT_SECRET with DATABASE_URL', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://localhost/x' })).toThrow(/SEAWORTHY_JWT_SECRET is required/)
  })

  it('refuses several workers on the embedded database', () => {
    expect(() => loadConfig({ WORKERS: '2', DATA_DIR: '/tmp/x', SEAWORTHY_JWT_SECRET: 'x'.repeat(40) })).toThrow(
      /WORKERS above 1 needs DATABASE_URL/,
    )
    expect(loadConfig({ WORKERS: '2', DATABASE_URL: 'postgres://localhost/x', SEAWORTHY_JWT_SECRET: 'x'.repeat(40) }).workers).toBe(2)
  })

  it('reads TRUST_PROXY as a list of IPs and CIDRs, and refuses anything else', () => {
    const base = { DATA_DIR: '/tmp/x', SEAWORTHY_JWT_SECRET: 'x'.repeat(40) }
    expect(loadConfig(base).trustProxy).toEqual([])
    expect(loadConfig({ ...base, TRUST_PROXY: ' 10.0.0.1, 192.168.0.0/16,2001:db8::/32 ' }).trustProxy).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '2001:db8::/32',
    ])
    for (const bad of ['proxy.example.com', '10.0.0.0/33', 'true']) {
      expect(() => loadConfig({ ...base, TRUST_PROXY: bad })).toThrow(/^Invalid configuration: TRUST_PROXY invalid/)
    }
  })

  it('applies the documented defaults', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://localhost/x', SEAWORTHY_JWT_SECRET: 'x'.repeat(40) })
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8000,
      accessTokenTtlSeconds: 3600,
      expiringSoonDays: 90,
      uploadMaxBytes: 26214400,
      workers: 1,
      login: { maxPerPair: 10, maxPerAddress: 50, maxPerEmail: 200, windowSeconds: 900 },
      trustProxy: [],
      webhooks: { allowedHosts: [], allowHttp: false },
      expirySweepIntervalSeconds: 3600,
      auditRetentionDays: 0,
      runJobs: true,
    })
    expect(Object.isFrozen(config)).toBe(true)
  })

  it('reads the slow-body settings: 512 bytes a second over every 10 s by default, 0 turning the rate off', () => {
    const base = { DATA_DIR: '/tmp/x', SEAWORTHY_JWT_SECRET: 'x'.repeat(40) }
    expect(loadConfig(base).http).toMatchObject({ minBytesPerSecond: 512, bodyGraceSeconds: 10, requestTimeoutSeconds: 120 })
    const set = loadConfig({ ...base, REQUEST_MIN_BYTES_PER_SECOND: '0', REQUEST_BODY_GRACE_SECONDS: '30' }).http
    expect(set).toMatchObject({ minBytesPerSecond: 0, bodyGraceSeconds: 30 })
    expect(() => loadConfig({ ...base, REQUEST_MIN_BYTES_PER_SECOND: '-1' })).toThrow(/REQUEST_MIN_BYTES_PER_SECOND/)
    expect(() => loadConfig({ ...base, REQUEST_BODY_GRACE_SECONDS: '0' })).toThrow(/REQUEST_BODY_GRACE_SECONDS/)
  })

  it('reads the webhook, job and retention settings, and refuses a sweep interval under a second', () => {
    const base = { DATA_DIR: '/tmp/x', SEAWORTHY_JWT_SECRET: 'x'.repeat(40) }
    const config = loadConfig({
      ...base,
      WEBHOOK_ALLOWED_HOSTS: ' Hooks.Internal ,127.0.0.1,',
      WEBHOOK_ALLOW_HTTP: '1',
      EXPIRY_SWEEP_INTERVAL_SECONDS: '1',
      AUDIT_RETENTION_DAYS: '400',
      RUN_JOBS: '0',
    })
    expect(config).toMatchObject({
      webhooks: { allowedHosts: ['hooks.internal', '127.0.0.1'], allowHttp: true },
      expirySweepIntervalSeconds: 1,
      auditRetentionDays: 400,
      runJobs: false,
    })
    expect(() => loadConfig({ ...base, EXPIRY_SWEEP_INTERVAL_SECONDS: '0' })).toThrow(/EXPIRY_SWEEP_INTERVAL_SECONDS/)
    expect(() => loadConfig({ ...base, AUDIT_RETENTION_DAYS: '-1' })).toThrow(/AUDIT_RETENTION_DAYS/)
    expect(() => loadConfig({ ...base, WEBHOOK_ALLOW_HTTP: 'yes' })).toThrow(/WEBHOOK_ALLOW_HTTP/)
  })

  it('reads the course import settings (DECISIONS §13.7): 2 GiB expanded and 600 s by default', () => {
    const base = { DATA_DIR: '/tmp/x', SEAWORTHY_JWT_SECRET: 'x'.repeat(40) }
    expect(loadConfig(base).courseImports).toEqual({ maxExpandedBytes: 2 * 1024 ** 3, timeoutSeconds: 600 })
    const set = loadConfig({ ...base, COURSE_PACKAGE_MAX_EXPANDED_BYTES: '1048576', COURSE_IMPORT_TIMEOUT_SECONDS: '30' })
    expect(set.courseImports).toEqual({ maxExpandedBytes: 1048576, timeoutSeconds: 30 })
    expect(() => loadConfig({ ...base, COURSE_IMPORT_TIMEOUT_SECONDS: '0' })).toThrow(/COURSE_IMPORT_TIMEOUT_SECONDS/)
    expect(() => loadConfig({ ...base, COURSE_PACKAGE_MAX_EXPANDED_BYTES: '0' })).toThrow(/COURSE_PACKAGE_MAX_EXPANDED_BYTES/)
  })

  it("reads the LRS's limits, with their defaults, and refuses values out of range", () => {
    const base = { DATA_DIR: '/tmp/x', SEAWORTHY_JWT_SECRET: 'x'.repeat(40) }
    expect(loadConfig(base).xapi).toEqual({ maxBodyBytes: 32 * 1024 * 1024, maxAttachments: 100, maxBatch: 1000 })
    const set = loadConfig({ ...base, XAPI_MAX_BODY_BYTES: '1048576', XAPI_MAX_ATTACHMENTS: '0', XAPI_MAX_BATCH: '50' })
    expect(set.xapi).toEqual({ maxBodyBytes: 1048576, maxAttachments: 0, maxBatch: 50 })
    expect(() => loadConfig({ ...base, XAPI_MAX_BODY_BYTES: '1000' })).toThrow(/XAPI_MAX_BODY_BYTES/)
    expect(() => loadConfig({ ...base, XAPI_MAX_ATTACHMENTS: '-1' })).toThrow(/XAPI_MAX_ATTACHMENTS/)
    expect(() => loadConfig({ ...base, XAPI_MAX_BATCH: '0' })).toThrow(/XAPI_MAX_BATCH/)
  })

  describe('S3 storage', () => {
    const base = { DATA_DIR: '/tmp/x', SEAWORTHY_JWT_SECRET: 'x'.repeat(40) }

    it('is off without S3_BUCKET, whatever AWS credentials the environment holds', () => {
      expect(loadConfig({ ...base, AWS_ACCESS_KEY_ID: 'AK', AWS_SECRET_ACCESS_KEY: 'SK' }).s3).toBeNull()
    })

    it('reads the bucket, endpoint, region, path style and credentials', () => {
      expect(loadConfig({ ...base, S3_BUCKET: 'files' }).s3).toEqual({
        bucket: 'files',
        endpoint: undefined,
        region: 'us-east-1',
        forcePathStyle: false,
        credentials: undefined,
      })
      const s3 = loadConfig({
        ...base,
        S3_BUCKET: 'crew.files-1',
        S3_ENDPOINT: 'https://minio.internal:9000/',
        S3_REGION: 'eu-west-1',
        S3_FORCE_PATH_STYLE: 'true',
        AWS_ACCESS_KEY_ID: 'AK',
        AWS_SECRET_ACCESS_KEY: 'SK',
      }).s3
      expect(s3).toEqual({
        bucket: 'crew.files-1',
        endpoint: 'https://minio.internal:9000',
        region: 'eu-west-1',
        forcePathStyle: true,
        credentials: { accessKeyId: 'AK', secretAccessKey: 'SK' },
      })
      expect(Object.isFrozen(s3)).toBe(true)
    })

    it('stops on a bad value, naming the variable', () => {
      const bad: Record<string, string>[] = [
        { S3_BUCKET: 'Files_Upper' },
        { S3_BUCKET: 'files', S3_ENDPOINT: 'minio:9000' },
        { S3_BUCKET: 'files', S3_ENDPOINT: 'https://minio/path' },
        { S3_BUCKET: 'files', S3_REGION: 'EU WEST' },
        { S3_BUCKET: 'files', S3_FORCE_PATH_STYLE: 'yes' },
      ]
      for (const env of bad) {
        const name = Object.keys(env).at(-1)!
        expect(() => loadConfig({ ...base, ...env })).toThrow(new RegExp(`^Invalid configuration: ${name} `))
      }
    })

    it('refuses settings that need a bucket, half a key pair, and uploads larger than S3 takes in one POST', () => {
      expect(() => loadConfig({ ...base, S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(
        new ConfigError('Invalid configuration: S3_ENDPOINT needs S3_BUCKET'),
      )
      expect(() => loadConfig({ ...base, S3_FORCE_PATH_STYLE: 'true' })).toThrow(/S3_FORCE_PATH_STYLE needs S3_BUCKET/)
      expect(() => loadConfig({ ...base, S3_BUCKET: 'files', AWS_ACCESS_KEY_ID: 'AK' })).toThrow(
        new ConfigError('Invalid configuration: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together'),
      )
      expect(() => loadConfig({ ...base, S3_BUCKET: 'files', UPLOAD_MAX_BYTES: String(5 * 1024 ** 3 + 1) })).toThrow(
        /UPLOAD_MAX_BYTES above 5 GiB/,
      )
      expect(loadConfig({ ...base, S3_BUCKET: 'files', UPLOAD_MAX_BYTES: String(5 * 1024 ** 3) }).uploadMaxBytes).toBe(5 * 1024 ** 3)
    })
  })
})
