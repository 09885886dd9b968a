import { writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { fromPglite, fromPostgres, migrateToLatest, pgliteOptions } from '../src/db/database.js'

/**
 * Migrates once per run: a PGlite image that each worker loads once (test/app.ts), and, when
 * TEST_DATABASE_URL is set, the PostgreSQL database the workers share (each test owns its organization).
 */
export default async function setup({ provide }: { provide: (key: string, value: string) => void }) {
  const pglite = await PGlite.create(pgliteOptions())
  const database = fromPglite(pglite)
  await migrateToLatest(database.db)
  const image = join(tmpdir(), `seaworthy-test-image-${process.pid}.tar`)
  await writeFile(image, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()))
  await database.close()
  provide('pgliteImage', image)

  const url = process.env.TEST_DATABASE_URL
  if (url) {
    const pg = fromPostgres(url, 1)
    await migrateToLatest(pg.db)
    // Login failures are counted per client address, across organizations: failures left by earlier
    // runs on the same database must not throttle this one.
    await pg.db.deleteFrom('login_failures').execute()
    await pg.close()
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteImage: string
  }
}
