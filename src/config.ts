import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import proxyAddr from '@fastify/proxy-addr'
import Type, { type Static } from 'typebox'
import { createValidator } from './lib/validation.js'

/** A yes/no setting: '1' or 'true' is yes, '0' or 'false' no. */
const Flag = (fallback: '0' | '1') => Type.Enum(['0', '1', 'false', 'true'], { default: fallback })
const isOn = (flag: string) => flag === '1' || flag === 'true'

// The only reader of process.env. Every variable is declared here once.
const EnvSchema = Type.Object({
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  DATA_DIR: Type.String({ default: './data', minLength: 1 }),
  HOST: Type.String({ default: '127.0.0.1', minLength: 1 }),
  PORT: Type.Integer({ default: 8000, minimum: 0, maximum: 65535 }),
  PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  // Where package content is served from (DECISIONS §13.3): an origin of its own, never the API's.
  CONTENT_ORIGIN: Type.Optional(Type.String({ pattern: '^https?://[^/?#]+/?$' })),
  SEAWORTHY_JWT_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  ACCESS_TOKEN_TTL_SECONDS: Type.Integer({
    default: 3600,
    minimum: 60,
    maximum: 604800,
  }),
  // Accounts (DECISIONS §15): invitation links, refresh tokens, and the mail that sends links when set.
  INVITATION_TTL_HOURS: Type.Integer({ default: 168, minimum: 1, maximum: 8760 }),
  REFRESH_TOKEN_TTL_DAYS: Type.Integer({ default: 30, minimum: 1, maximum: 3650 }),
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://' })),
  SMTP_FROM: Type.Optional(Type.String({ minLength: 3, maxLength: 320 })),
  EXPIRING_SOON_DAYS: Type.Integer({ default: 90, minimum: 0, maximum: 3650 }),
  UPLOAD_MAX_BYTES: Type.Integer({ default: 26214400, minimum: 1 }),
  // A course package (DECISIONS §13.2): 1 GiB by default.
  COURSE_PACKAGE_MAX_BYTES: Type.Integer({ default: 1073741824, minimum: 1 }),
  // Imports (DECISIONS §13.7): what a package's entries may expand to in all (2 GiB), how long an import may run.
  COURSE_PACKAGE_MAX_EXPANDED_BYTES: Type.Integer({ default: 2147483648, minimum: 1 }),
  COURSE_IMPORT_TIMEOUT_SECONDS: Type.Integer({ default: 600, minimum: 1, maximum: 86400 }),
  // How long a launch session lives without ending (DECISIONS §13.4): then it is abandoned by the sweep.
  LAUNCH_SESSION_MINUTES: Type.Integer({ default: 240, minimum: 1, maximum: 10080 }),
  // A SCO that has not called the API this long after its launch is not responding (DECISIONS §13.6).
  SCORM_IDLE_SECONDS: Type.Integer({ default: 300, minimum: 0, maximum: 86400 }),
  // How long a session launched for offline play lives (DECISIONS §16); its records are accepted 7 days longer.
  OFFLINE_SESSION_DAYS: Type.Integer({ default: 30, minimum: 1, maximum: 365 }),
  // The LRS's limits (DECISIONS §13.7): one request's bytes, the attachments of a multipart/mixed request, statements per POST.
  XAPI_MAX_BODY_BYTES: Type.Integer({ default: 33554432, minimum: 65536, maximum: 1073741824 }),
  XAPI_MAX_ATTACHMENTS: Type.Integer({ default: 100, minimum: 0, maximum: 10000 }),
  XAPI_MAX_BATCH: Type.Integer({ default: 1000, minimum: 1, maximum: 100000 }),
  UPLOAD_URL_TTL_SECONDS: Type.Integer({
    default: 900,
    minimum: 10,
    maximum: 86400,
  }),
  // Per (e-mail, client address) pair: the name predates the per-address and per-e-mail ceilings.
  LOGIN_MAX_FAILURES_PER_EMAIL: Type.Integer({ default: 10, minimum: 1 }),
  LOGIN_MAX_FAILURES_PER_ADDRESS: Type.Integer({ default: 50, minimum: 1 }),
  LOGIN_MAX_FAILURES_PER_EMAIL_TOTAL: Type.Integer({ default: 200, minimum: 1 }),
  LOGIN_WINDOW_SECONDS: Type.Integer({ default: 900, minimum: 1 }),
  TRUST_PROXY: Type.Optional(Type.String()),
  WORKERS: Type.Integer({ default: 1, minimum: 1, maximum: 64 }),
  DB_POOL_SIZE: Type.Integer({ default: 10, minimum: 1, maximum: 200 }),
  // Single sign-on: http:// issuers only for local identity providers (development, tests).
  SSO_ALLOW_HTTP: Flag('0'),
  // Least time between two JWKS fetches of one issuer (an unknown key id triggers a refetch).
  SSO_JWKS_COOLDOWN_SECONDS: Type.Integer({ default: 30, minimum: 0, maximum: 3600 }),
  SHUTDOWN_GRACE_SECONDS: Type.Integer({ default: 25, minimum: 0, maximum: 3600 }),
  REQUEST_TIMEOUT_SECONDS: Type.Integer({ default: 120, minimum: 1, maximum: 3600 }),
  HEADERS_TIMEOUT_SECONDS: Type.Integer({ default: 15, minimum: 1, maximum: 3600 }),
  IDLE_TIMEOUT_SECONDS: Type.Integer({ default: 120, minimum: 1, maximum: 3600 }),
  KEEP_ALIVE_TIMEOUT_SECONDS: Type.Integer({ default: 72, minimum: 1, maximum: 3600 }),
  MAX_REQUESTS_PER_SOCKET: Type.Integer({ default: 1000, minimum: 0 }),
  // Slow request bodies: every REQUEST_BODY_GRACE_SECONDS of a body must bring that many seconds of the
  // minimum rate, or it is cut with a 408 (0: no minimum rate; REQUEST_TIMEOUT_SECONDS still applies).
  REQUEST_MIN_BYTES_PER_SECOND: Type.Integer({ default: 512, minimum: 0, maximum: 1_000_000_000 }),
  REQUEST_BODY_GRACE_SECONDS: Type.Integer({ default: 10, minimum: 1, maximum: 3600 }),
  DB_CONNECT_TIMEOUT_MS: Type.Integer({ default: 3000, minimum: 100, maximum: 60000 }),
  // GET /metrics asks for this bearer token when it is set; open otherwise (keep it off the public network then).
  METRICS_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  // Browser origins allowed to call the API (comma-separated, e.g. https://crew.example.com); none: CORS off.
  CORS_ORIGINS: Type.Optional(Type.String()),
  LOG_LEVEL: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info' }),
  // S3 bucket naming rules (also MinIO's): 3–63 lower-case letters, digits, dots and hyphens.
  S3_BUCKET: Type.Optional(Type.String({ pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$' })),
  S3_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://[^/?#]+/?$' })),
  S3_REGION: Type.Optional(Type.String({ pattern: '^[a-z0-9-]+$' })),
  S3_FORCE_PATH_STYLE: Type.Optional(Type.Enum(['true', 'false'])),
  AWS_ACCESS_KEY_ID: Type.Optional(Type.String({ minLength: 1 })),
  AWS_SECRET_ACCESS_KEY: Type.Optional(Type.String({ minLength: 1 })),
  // Webhook targets: host names (as written in the URL) let through the private-address guard.
  WEBHOOK_ALLOWED_HOSTS: Type.Optional(Type.String()),
  WEBHOOK_ALLOW_HTTP: Flag('0'),
  EXPIRY_SWEEP_INTERVAL_SECONDS: Type.Integer({ default: 3600, minimum: 1, maximum: 86400 }),
  // 0: this instance serves the API and queues jobs but works none (other instances do).
  RUN_JOBS: Flag('1'),
  // 0 keeps every event.
  AUDIT_RETENTION_DAYS: Type.Integer({ default: 0, minimum: 0, maximum: 36500 }),
})

type Env = Static<typeof EnvSchema>

export interface S3Config {
  readonly bucket: string
  /** A custom endpoint (MinIO, another S3-compatible service); AWS's own when absent. */
  readonly endpoint: string | undefined
  readonly region: string
  readonly forcePathStyle: boolean
  /** Absent: the AWS SDK's default chain (an instance or task role). */
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string } | undefined
}

/** Where the data lives: all the command line needs. */
export interface DatabaseConfig {
  readonly databaseUrl: string | undefined
  readonly dataDir: string
}

export interface Config extends DatabaseConfig {
  readonly host: string
  readonly port: number
  readonly publicUrl: string
  /**
   * The origin package content is served from; the service also listens on `contentPort` for it
   * (PORT + 1; behind a reverse proxy CONTENT_ORIGIN names the proxy's origin for that port).
   */
  readonly contentOrigin: string
  readonly contentPort: number
  readonly jwtSecret: string
  readonly accessTokenTtlSeconds: number
  readonly accounts: AccountsConfig
  readonly expiringSoonDays: number
  readonly uploadMaxBytes: number
  /** The largest course package upload; its archive may expand to 4 × this (DECISIONS §13.2). */
  readonly coursePackageMaxBytes: number
  /** DECISIONS §13.7: an archive expanding past this (or 4 × coursePackageMaxBytes) is refused; an import running longer fails. */
  readonly courseImports: { readonly maxExpandedBytes: number; readonly timeoutSeconds: number }
  /** A launch session's lifetime: its content path and credential stop working, and the sweep abandons it. */
  readonly launchSessionMinutes: number
  /** A SCORM session whose SCO has not called the API this long after launch may be ended as abandoned by its player. */
  readonly scormIdleSeconds: number
  readonly offlineSessionDays: number
  readonly xapi: XapiLimits
  readonly uploadUrlTtlSeconds: number
  readonly login: LoginLimits
  /** Proxies (IPs, CIDRs) whose X-Forwarded-For is believed; empty: the client is the TCP peer. */
  readonly trustProxy: readonly string[]
  readonly sso: {
    readonly allowHttp: boolean
    readonly jwksCooldownSeconds: number
  }
  readonly workers: number
  readonly dbPoolSize: number
  /** How long a request waits for a PostgreSQL connection (a new one, or a free one of the pool) before its 503. */
  readonly dbConnectTimeoutMs: number
  readonly logLevel: string
  /** The bearer token GET /metrics requires; null: the metrics are open. */
  readonly metricsToken: string | null
  /** Origins allowed to make cross-origin requests; empty: no CORS headers, preflights 404. */
  readonly corsOrigins: readonly string[]
  readonly shutdownGraceSeconds: number
  readonly http: {
    /** A request's body, from the end of its headers (bound by `headersTimeoutSeconds`); not the embedded upload target's. */
    readonly requestTimeoutSeconds: number
    readonly headersTimeoutSeconds: number
    /** A socket with no traffic at all while a request is open. */
    readonly idleTimeoutSeconds: number
    readonly keepAliveTimeoutSeconds: number
    /** 0: no limit. */
    readonly maxRequestsPerSocket: number
    /** A body's least rate, over every `bodyGraceSeconds` of it; 0: none. */
    readonly minBytesPerSecond: number
    readonly bodyGraceSeconds: number
  }
  /** Files on S3-compatible storage when S3_BUCKET is set; local disk under dataDir otherwise. */
  readonly s3: S3Config | null
  readonly webhooks: {
    /** Lower-case host names exempt from the private-address guard. */
    readonly allowedHosts: readonly string[]
    readonly allowHttp: boolean
  }
  readonly expirySweepIntervalSeconds: number
  /** Whether this instance works the job queue (webhook deliveries, expiry sweep, retention). */
  readonly runJobs: boolean
  /** Events older than this many days are deleted; 0 keeps them all. */
  readonly auditRetentionDays: number
}

export interface AccountsConfig {
  readonly invitationTtlHours: number
  readonly refreshTokenTtlDays: number
  /** Where links are e-mailed from; null: links are only in the API's answers. */
  readonly mail: { readonly url: string; readonly from: string } | null
}

/** What one request to the LRS may carry (DECISIONS §13.7). */
export interface XapiLimits {
  /** A whole request: larger is a 413, or a 400 for multipart/mixed (refused while it streams in). */
  readonly maxBodyBytes: number
  /** Parts of a multipart/mixed request after the statements' own part. */
  readonly maxAttachments: number
  /** Statements in one POST: more is 413. */
  readonly maxBatch: number
}

export interface LoginLimits {
  /** Failures of one e-mail from one address. */
  readonly maxPerPair: number
  readonly maxPerAddress: number
  /** Failures of one e-mail from all addresses together. */
  readonly maxPerEmail: number
  readonly windowSeconds: number
}

export class ConfigError extends Error {}

const validateEnv = createValidator(EnvSchema, { coerce: true })

function readEnv(source: Record<string, string | undefined>): Env {
  const input = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''))
  const result = validateEnv(input)
  if (!result.ok) {
    const first = result.errors[0]
    const name = first.loc[0] ?? 'environment'
    throw new ConfigError(`Invalid configuration: ${name} ${first.msg}`)
  }
  return result.value
}

/** TRUST_PROXY as the list Fastify's trustProxy takes, checked by the same parser Fastify uses. */
function trustedProxies(raw: string | undefined): string[] {
  const list = (raw ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  if (list.length === 0) return []
  try {
    proxyAddr.compile(list)
  } catch (error) {
    throw new ConfigError(`Invalid configuration: TRUST_PROXY ${(error as Error).message}`)
  }
  return list
}

/** CORS_ORIGINS as a list of origins: each `scheme://host[:port]`, as a browser sends it in `Origin`. */
function corsOrigins(raw: string | undefined): string[] {
  const list = (raw ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  const bad = list.find((entry) => !URL.canParse(entry) || new URL(entry).origin !== entry)
  if (bad) throw new ConfigError(`Invalid configuration: CORS_ORIGINS entry ${bad} is not an origin like https://app.example.com`)
  return list
}

// The embedded default keeps its generated secret beside its data so restarts keep tokens valid.
function embeddedSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret')
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  mkdirSync(dataDir, { recursive: true })
  const secret = randomBytes(48).toString('base64url')
  writeFileSync(file, secret, { mode: 0o600 })
  return secret
}

// The largest object a single S3 POST upload or CopyObject handles.
const S3_MAX_OBJECT_BYTES = 5 * 1024 ** 3

function readS3(env: Env): S3Config | null {
  const { S3_BUCKET: bucket, AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey } = env
  const stray = (['S3_ENDPOINT', 'S3_REGION', 'S3_FORCE_PATH_STYLE'] as const).find((name) => env[name] !== undefined)
  // Settings that would be silently ignored without a bucket are a mistake worth stopping for.
  if (!bucket) {
    if (stray) throw new ConfigError(`Invalid configuration: ${stray} needs S3_BUCKET`)
    return null
  }
  if (env.UPLOAD_MAX_BYTES > S3_MAX_OBJECT_BYTES) {
    throw new ConfigError('Invalid configuration: UPLOAD_MAX_BYTES above 5 GiB is more than one S3 POST or copy takes')
  }
  if (env.COURSE_PACKAGE_MAX_BYTES > S3_MAX_OBJECT_BYTES) {
    throw new ConfigError('Invalid configuration: COURSE_PACKAGE_MAX_BYTES above 5 GiB is more than one S3 POST or copy takes')
  }
  if (!accessKeyId !== !secretAccessKey) {
    throw new ConfigError('Invalid configuration: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together')
  }
  return Object.freeze({
    bucket,
    endpoint: env.S3_ENDPOINT?.replace(/\/$/, ''),
    region: env.S3_REGION ?? 'us-east-1',
    forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true',
    credentials: accessKeyId && secretAccessKey ? Object.freeze({ accessKeyId, secretAccessKey }) : undefined,
  })
}

/** Package content must never share the API's origin (DECISIONS §13.3), and needs the port after PORT. */
function checkContentOrigin(env: Env): void {
  if (env.PORT === 65535) throw new ConfigError('Invalid configuration: PORT 65535 leaves no PORT + 1 for package content')
  if (env.CONTENT_ORIGIN && env.PUBLIC_URL && new URL(env.CONTENT_ORIGIN).origin === new URL(env.PUBLIC_URL).origin) {
    throw new ConfigError(
      "Invalid configuration: CONTENT_ORIGIN must differ from PUBLIC_URL's origin (package scripts would reach signed-in users' tokens)",
    )
  }
}

/** The command line's configuration: it signs nothing, so it neither needs nor generates a JWT secret. */
export function loadDatabaseConfig(source: Record<string, string | undefined> = process.env): DatabaseConfig {
  const env = readEnv(source)
  return Object.freeze({ databaseUrl: env.DATABASE_URL, dataDir: resolve(env.DATA_DIR) })
}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const env = readEnv(source)
  if (env.DATABASE_URL && !env.SEAWORTHY_JWT_SECRET) {
    throw new ConfigError('Invalid configuration: SEAWORTHY_JWT_SECRET is required when DATABASE_URL is set (every instance must share it)')
  }
  if (env.WORKERS > 1 && !env.DATABASE_URL) {
    throw new ConfigError('Invalid configuration: WORKERS above 1 needs DATABASE_URL (the embedded database belongs to one process)')
  }
  if (!env.SMTP_URL !== !env.SMTP_FROM) throw new ConfigError('Invalid configuration: SMTP_URL and SMTP_FROM go together')
  const dataDir = resolve(env.DATA_DIR)
  const s3 = readS3(env)
  checkContentOrigin(env)
  return Object.freeze({
    databaseUrl: env.DATABASE_URL,
    dataDir,
    host: env.HOST,
    port: env.PORT,
    publicUrl: (env.PUBLIC_URL ?? `http://${env.HOST}:${env.PORT}`).replace(/\/$/, ''),
    contentOrigin: (env.CONTENT_ORIGIN ?? `http://${env.HOST}:${env.PORT + 1}`).replace(/\/$/, ''),
    // Port 0 (an ephemeral port, in tests) stays 0 for the content listener too.
    contentPort: env.PORT === 0 ? 0 : env.PORT + 1,
    jwtSecret: env.SEAWORTHY_JWT_SECRET ?? embeddedSecret(dataDir),
    accessTokenTtlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
    accounts: Object.freeze({
      invitationTtlHours: env.INVITATION_TTL_HOURS,
      refreshTokenTtlDays: env.REFRESH_TOKEN_TTL_DAYS,
      mail: env.SMTP_URL && env.SMTP_FROM ? Object.freeze({ url: env.SMTP_URL, from: env.SMTP_FROM }) : null,
    }),
    expiringSoonDays: env.EXPIRING_SOON_DAYS,
    uploadMaxBytes: env.UPLOAD_MAX_BYTES,
    coursePackageMaxBytes: env.COURSE_PACKAGE_MAX_BYTES,
    courseImports: Object.freeze({
      maxExpandedBytes: env.COURSE_PACKAGE_MAX_EXPANDED_BYTES,
      timeoutSeconds: env.COURSE_IMPORT_TIMEOUT_SECONDS,
    }),
    launchSessionMinutes: env.LAUNCH_SESSION_MINUTES,
    scormIdleSeconds: env.SCORM_IDLE_SECONDS,
    offlineSessionDays: env.OFFLINE_SESSION_DAYS,
    xapi: Object.freeze({ maxBodyBytes: env.XAPI_MAX_BODY_BYTES, maxAttachments: env.XAPI_MAX_ATTACHMENTS, maxBatch: env.XAPI_MAX_BATCH }),
    uploadUrlTtlSeconds: env.UPLOAD_URL_TTL_SECONDS,
    login: Object.freeze({
      maxPerPair: env.LOGIN_MAX_FAILURES_PER_EMAIL,
      maxPerAddress: env.LOGIN_MAX_FAILURES_PER_ADDRESS,
      maxPerEmail: env.LOGIN_MAX_FAILURES_PER_EMAIL_TOTAL,
      windowSeconds: env.LOGIN_WINDOW_SECONDS,
    }),
    trustProxy: Object.freeze(trustedProxies(env.TRUST_PROXY)),
    sso: Object.freeze({
      allowHttp: isOn(env.SSO_ALLOW_HTTP),
      jwksCooldownSeconds: env.SSO_JWKS_COOLDOWN_SECONDS,
    }),
    workers: env.WORKERS,
    dbPoolSize: env.DB_POOL_SIZE,
    dbConnectTimeoutMs: env.DB_CONNECT_TIMEOUT_MS,
    logLevel: env.LOG_LEVEL,
    metricsToken: env.METRICS_TOKEN ?? null,
    corsOrigins: Object.freeze(corsOrigins(env.CORS_ORIGINS)),
    s3,
    shutdownGraceSeconds: env.SHUTDOWN_GRACE_SECONDS,
    http: Object.freeze({
      requestTimeoutSeconds: env.REQUEST_TIMEOUT_SECONDS,
      headersTimeoutSeconds: env.HEADERS_TIMEOUT_SECONDS,
      idleTimeoutSeconds: env.IDLE_TIMEOUT_SECONDS,
      keepAliveTimeoutSeconds: env.KEEP_ALIVE_TIMEOUT_SECONDS,
      maxRequestsPerSocket: env.MAX_REQUESTS_PER_SOCKET,
      minBytesPerSecond: env.REQUEST_MIN_BYTES_PER_SECOND,
      bodyGraceSeconds: env.REQUEST_BODY_GRACE_SECONDS,
    }),
    webhooks: Object.freeze({
      allowedHosts: Object.freeze(
        (env.WEBHOOK_ALLOWED_HOSTS ?? '')
          .split(',')
          .map((host) => host.trim().toLowerCase())
          .filter(Boolean),
      ),
      allowHttp: isOn(env.WEBHOOK_ALLOW_HTTP),
    }),
    expirySweepIntervalSeconds: env.EXPIRY_SWEEP_INTERVAL_SECONDS,
    runJobs: isOn(env.RUN_JOBS),
    auditRetentionDays: env.AUDIT_RETENTION_DAYS,
  })
}
