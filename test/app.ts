import { mkdtempSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import type { LightMyRequestResponse } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, inject } from 'vitest'
import { type App, buildApp } from '../src/app.js'
import { type Config, loadConfig } from '../src/config.js'
import { type Database, fromPglite, fromPostgres, migrateToLatest, pgliteOptions } from '../src/db/database.js'
import type { JobTuning } from '../src/lib/jobs.js'
import type { Storage } from '../src/lib/storage.js'

export const TEST_SECRET = 'test-secret-test-secret-test-secret-0123456789'

export interface TestApp {
  app: App
  config: Config
  database: Database
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    DATA_DIR: mkdtempSync(join(tmpdir(), 'seaworthy-test-')),
    SEAWORTHY_JWT_SECRET: TEST_SECRET,
    LOG_LEVEL: 'silent',
    // Only the tests of background work run the job queue's workers.
    RUN_JOBS: '0',
    ...overrides,
  })
}

/**
 * The worker's database: a clone of the migrated PGlite image, or a pool on TEST_DATABASE_URL.
 * Every file the worker runs shares it (each test owns its organization), so apps never close it:
 * it ends with the worker process.
 */
let workerDatabase: Promise<Database> | undefined
export function testDatabase(): Promise<Database> {
  workerDatabase ??= openWorkerDatabase()
  return workerDatabase
}

async function openWorkerDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL
  // No limit on waiting for a pooled connection: on a busy machine a queue of concurrent requests
  // must not turn into 503s (only the test timeout ends a wait).
  const database = url
    ? fromPostgres(url, 5, 0)
    : fromPglite(await PGlite.create({ ...pgliteOptions(), loadDataDir: new Blob([await readFile(inject('pgliteImage'))]) }))
  return { ...database, close: async () => {} }
}

/**
 * A migrated database of the caller's own, for tests whose background workers read every
 * organization (jobs, sweeps): other files' rows and subscriptions must not reach them. Apps built
 * on it leave it open; `dispose` closes it (and drops it on PostgreSQL).
 */
export async function privateDatabase(): Promise<{ database: Database; dispose: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL
  if (!url) {
    const own = fromPglite(await PGlite.create({ ...pgliteOptions(), loadDataDir: new Blob([await readFile(inject('pgliteImage'))]) }))
    return { database: { ...own, close: async () => {} }, dispose: () => own.close() }
  }
  const server = fromPostgres(url, 1)
  const name = `${new URL(url).pathname.slice(1)}_own_${process.pid}_${Date.now()}`
  await sql`create database ${sql.id(name)}`.execute(server.db)
  const ownUrl = new URL(url)
  ownUrl.pathname = `/${name}`
  const own = fromPostgres(ownUrl.toString(), 5, 0)
  await migrateToLatest(own.db)
  const dispose = async () => {
    await own.close()
    await sql`drop database if exists ${sql.id(name)} with (force)`.execute(server.db)
    await server.close()
  }
  return { database: { ...own, close: async () => {} }, dispose }
}

/** An app of its own, on the worker's database (or `database`); close it when done. */
export async function buildTestApp(
  overrides: Record<string, string> = {},
  options: { jobs?: Partial<JobTuning>; database?: Database; storage?: (config: Config) => Storage } = {},
): Promise<TestApp> {
  const config = testConfig(overrides)
  const database = options.database ?? (await testDatabase())
  const app = await buildApp({ config, database, logger: false, jobs: options.jobs, storage: options.storage?.(config) })
  await app.ready()
  return { app, config, database }
}

let workerApp: Promise<TestApp> | undefined

/**
 * The test file's app, filled in by a beforeAll: the worker's shared app with the default test
 * config, or, with config overrides, an app of the file's own that is closed after the file.
 */
export function useTestApp(overrides?: Record<string, string>): TestApp {
  const t = {} as TestApp
  beforeAll(async () => {
    if (overrides) return void Object.assign(t, await buildTestApp(overrides))
    workerApp ??= buildTestApp()
    Object.assign(t, await workerApp)
  })
  if (overrides) afterAll(() => t.app.close())
  return t
}

export interface Reply<T = any> {
  status: number
  body: T
  headers: LightMyRequestResponse['headers']
  text: string
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT'

/** HTTP through app.inject, as one caller (or anonymously without a token). */
export function client(app: App, token?: string) {
  const send = async <T = any>(method: Method, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply<T>> => {
    const response = await app.inject({
      method,
      url,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      ...(body === undefined ? {} : typeof body === 'string' ? { payload: body } : { payload: body as object }),
    })
    const text = response.body
    let parsed: unknown = text
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {
      // non-JSON bodies stay as text
    }
    return { status: response.statusCode, body: parsed as T, headers: response.headers, text }
  }
  return {
    get: <T = any>(url: string, headers?: Record<string, string>) => send<T>('GET', url, undefined, headers),
    post: <T = any>(url: string, body?: unknown, headers?: Record<string, string>) => send<T>('POST', url, body, headers),
    patch: <T = any>(url: string, body?: unknown, headers?: Record<string, string>) => send<T>('PATCH', url, body, headers),
    put: <T = any>(url: string, body?: unknown, headers?: Record<string, string>) => send<T>('PUT', url, body, headers),
    delete: <T = any>(url: string, headers?: Record<string, string>) => send<T>('DELETE', url, undefined, headers),
  }
}
export type Client = ReturnType<typeof client>
