import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
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
