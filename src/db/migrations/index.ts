import type { Migration } from 'kysely/migration'
import * as initial from './2026_11_21_0001_initial.js'

// Listed explicitly so the same set runs from the TypeScript sources and the build.
export const migrations: Record<string, Migration> = {
  '2026_11_21_0001_initial': initial,
}
