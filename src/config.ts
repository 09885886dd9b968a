import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import Type, { type Static } from 'typebox'
import { createValidator } from './lib/validation.js'

// The only reader of process.env. Every variable is declared here once.
const EnvSchema = Type.Object({
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  DATA_DIR: Type.String({ default: './data', minLength: 1 }),
  HOST: Type.String({ default: '127.0.0.1', minLength: 1 }),
  PORT: Type.Integer({ default: 8000, minimum: 0, maximum: 65535 }),
  PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  SEAWORTHY_JWT_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  ACCESS_TOKEN_TTL_SECONDS: Type.Integer({
    default: 3600,
    minimum: 60,
    maximum: 604800,
  }),
  EXPIRING_SOON_DAYS: Type.Integer({ default: 90, minimum: 0, maximum: 3650 }),
  UPLOAD_MAX_BYTES: Type.Integer({ default: 26214400, minimum: 1 }),
  UPLOAD_URL_TTL_SECONDS: Type.Integer({
    default: 900,
    minimum: 10,
    maximum: 86400,
  }),
  LOGIN_MAX_FAILURES_PER_EMAIL: Type.Integer({ default: 10, minimum: 1 }),
  LOGIN_MAX_FAILURES_PER_ADDRESS: Type.Integer({ default: 50, minimum: 1 }),
  LOGIN_WINDOW_SECONDS: Type.Integer({ default: 900, minimum: 1 }),
  WORKERS: Type.Integer({ default: 1, minimum: 1, maximum: 64 }),
  DB_POOL_SIZE: Type.Integer({ default: 10, minimum: 1, maximum: 200 }),
  SHUTDOWN_GRACE_SECONDS: Type.Integer({ default: 25, minimum: 0, maximum: 3600 }),
  REQUEST_TIMEOUT_SECONDS: Type.Integer({ default: 120, minimum: 1, maximum: 3600 }),
  HEADERS_TIMEOUT_SECONDS: Type.Integer({ default: 15, minimum: 1, maximum: 3600 }),
  IDLE_TIMEOUT_SECONDS: Type.Integer({ default: 120, minimum: 1, maximum: 3600 }),
  KEEP_ALIVE_TIMEOUT_SECONDS: Type.Integer({ default: 72, minimum: 1, maximum: 3600 }),
  MAX_REQUESTS_PER_SOCKET: Type.Integer({ default: 1000, minimum: 0 }),
  LOG_LEVEL: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info' }),
})

type Env = Static<typeof EnvSchema>

export interface Config {
  readonly databaseUrl: string | undefined
  readonly dataDir: string
  readonly host: string
  readonly port: number
  readonly publicUrl: string
  readonly jwtSecret: string
  readonly accessTokenTtlSeconds: number
  readonly expiringSoonDays: number
  readonly uploadMaxBytes: number
  readonly uploadUrlTtlSeconds: number
  readonly login: {
    readonly maxPerEmail: number
    readonly maxPerAddress: number
    readonly windowSeconds: number
  }
  readonly workers: number
  readonly dbPoolSize: number
  readonly logLevel: string
  readonly shutdownGraceSeconds: number
  readonly http: {
    /** Whole request, headers and body, from the first byte. */
    readonly requestTimeoutSeconds: number
    readonly headersTimeoutSeconds: number
    /** A socket with no traffic at all while a request is open. */
    readonly idleTimeoutSeconds: number
    readonly keepAliveTimeoutSeconds: number
    /** 0: no limit. */
    readonly maxRequestsPerSocket: number
  }
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

// The embedded default keeps its generated secret beside its data so restarts keep tokens valid.
function embeddedSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret')
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  mkdirSync(dataDir, { recursive: true })
  const secret = randomBytes(48).toString('base64url')
  writeFileSync(file, secret, { mode: 0o600 })
  return secret
}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const env = readEnv(source)
  if (env.DATABASE_URL && !env.SEAWORTHY_JWT_SECRET) {
    throw new ConfigError('Invalid configuration: SEAWORTHY_JWT_SECRET is required when DATABASE_URL is set (every instance must share it)')
  }
  if (env.WORKERS > 1 && !env.DATABASE_URL) {
    throw new ConfigError('Invalid configuration: WORKERS above 1 needs DATABASE_URL (the embedded database belongs to one process)')
  }
  if (env.HEADERS_TIMEOUT_SECONDS > env.REQUEST_TIMEOUT_SECONDS) {
    throw new ConfigError(
      'Invalid configuration: HEADERS_TIMEOUT_SECONDS must not exceed REQUEST_TIMEOUT_SECONDS (the headers are part of the request)',
    )
  }
  const dataDir = resolve(env.DATA_DIR)
  return Object.freeze({
    databaseUrl: env.DATABASE_URL,
    dataDir,
    host: env.HOST,
    port: env.PORT,
    publicUrl: (env.PUBLIC_URL ?? `http://${env.HOST}:${env.PORT}`).replace(/\/$/, ''),
    jwtSecret: env.SEAWORTHY_JWT_SECRET ?? embeddedSecret(dataDir),
    accessTokenTtlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
    expiringSoonDays: env.EXPIRING_SOON_DAYS,
    uploadMaxBytes: env.UPLOAD_MAX_BYTES,
    uploadUrlTtlSeconds: env.UPLOAD_URL_TTL_SECONDS,
    login: Object.freeze({
      maxPerEmail: env.LOGIN_MAX_FAILURES_PER_EMAIL,
      maxPerAddress: env.LOGIN_MAX_FAILURES_PER_ADDRESS,
      windowSeconds: env.LOGIN_WINDOW_SECONDS,
    }),
    workers: env.WORKERS,
    dbPoolSize: env.DB_POOL_SIZE,
    logLevel: env.LOG_LEVEL,
    shutdownGraceSeconds: env.SHUTDOWN_GRACE_SECONDS,
    http: Object.freeze({
      requestTimeoutSeconds: env.REQUEST_TIMEOUT_SECONDS,
      headersTimeoutSeconds: env.HEADERS_TIMEOUT_SECONDS,
      idleTimeoutSeconds: env.IDLE_TIMEOUT_SECONDS,
      keepAliveTimeoutSeconds: env.KEEP_ALIVE_TIMEOUT_SECONDS,
      maxRequestsPerSocket: env.MAX_REQUESTS_PER_SOCKET,
    }),
  })
}
