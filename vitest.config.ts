import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: {
    // @xapi/cmi5 publishes an ES module without `main` or `exports`: point at it, and let Vite load it.
    alias: { '@xapi/cmi5': fileURLToPath(new URL('node_modules/@xapi/cmi5/dist/Cmi5.esm.js', import.meta.url)) },
  },
  test: {
    server: { deps: { inline: ['@xapi/cmi5'] } },
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Safety nets only: no test waits on time, so these are reached only by a hang.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    maxWorkers: 3,
    // A worker runs its files one after another in one process, so the modules, the migrated
    // database and the default app are made once per worker (test/app.ts), not once per file.
    // Files stay independent: each test creates its own organization.
    isolate: false,
  },
})
