import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { fromPglite, fromPostgres, migrateToLatest, pgliteOptions } from '../src/db/database.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const MIGRATIONS = join(ROOT, 'src/db/migrations')
const CACHE = join(ROOT, 'node_modules/.cache/seaworthy-test')

/**
 * Migrates once per run: when TEST_DATABASE_URL is set, the PostgreSQL database the workers share
 * (each test owns its organization); else a PGlite image that each worker loads once (test/app.ts).
 */
export default async function setup({ provide }: { provide: (key: string, value: string) => void }) {
  // Tests that start the server or the CLI as a process run the production build, so it must be this code's (about a second).
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: ROOT, stdio: 'inherit' })
  const url = process.env.TEST_DATABASE_URL
  if (!url) return provide('pgliteImage', await pgliteImage())
  const pg = fromPostgres(url, 1)
  await migrateToLatest(pg.db)
  // Login failures are counted per client address, across organizations: failures left by earlier
  // runs on the same database must not throttle this one.
  await pg.db.deleteFrom('login_failures').execute()
  await pg.close()
}

/**
 * The migrated image, built only when the migrations or PGlite changed since the last run: its
 * name is a hash of both, so a stale image is never used.
 */
async function pgliteImage(): Promise<string> {
  const hash = createHash('sha256').update(
    JSON.parse(await readFile(join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')).version,
  )
  for (const name of (await readdir(MIGRATIONS)).sort()) hash.update(name).update(await readFile(join(MIGRATIONS, name)))
  const image = join(CACHE, `pglite-${hash.digest('hex').slice(0, 16)}.tar`)
  if (existsSync(image)) return image

  const pglite = await PGlite.create(pgliteOptions())
  const database = fromPglite(pglite)
  await migrateToLatest(database.db)
  const tar = Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer())
  await database.close()
  await mkdir(CACHE, { recursive: true })
  for (const old of await readdir(CACHE)) if (!old.startsWith(basename(image))) await rm(join(CACHE, old), { force: true })
  // Older images go; the new one is written aside and renamed, so no run reads half an image.
  await writeFile(`${image}.${process.pid}`, tar)
  await rename(`${image}.${process.pid}`, image)
  return image
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteImage: string
  }
}
