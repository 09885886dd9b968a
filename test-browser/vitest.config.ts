import { defineConfig } from 'vitest/config'

// The console in a real browser against the real service on PostgreSQL: run on its own (npm run test:browser), not by npm test.
export default defineConfig({
  test: {
    include: ['test-browser/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
  },
})
