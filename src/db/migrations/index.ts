import type { Migration } from 'kysely/migration'
import * as initial from './2026_11_21_0001_initial.js'

// Listed explicitly (not read from the folder) so the same set runs from the sources, the build and the tests.
export const migrations: Record<string, Migration> = {
  '2026_11_21_0001_initial': initial,
}
