import { defineConfig } from 'vitest/config'

// The outage test starts and stops its own PostgreSQL: run on its own (npm run test:outage), not by npm test.
export default defineConfig({
  test: {
    include: ['test-outage/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
})
