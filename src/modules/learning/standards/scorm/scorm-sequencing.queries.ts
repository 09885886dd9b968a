import { sql } from 'kysely'
import type { Db } from '../../../../db/database.js'
import type { ActivityNode } from '../../packages/package-model.js'

// What a SCORM 2004 course played with sequencing reads and keeps (DECISIONS §13.6): the package's activity
// tree, the registration's sequencing state (suspend all) and each SCO's last judged outcome for rollup.

/** The package version's activity tree (SCORM 2004); null for a package without one. */
export async function packageTree(db: Db, packageId: string): Promise<ActivityNode | null> {
  const row = await db.selectFrom('course_packages').select('activity_tree').where('id', '=', packageId).executeTakeFirst()
  return (row?.activity_tree as ActivityNode | null | undefined) ?? null
}

/** Where the registration's course was left, with its shared data; undefined before any was kept. */
export function sequencingState(db: Db, orgId: string, registrationId: string) {
  return db
    .selectFrom('scorm_sequencing_states')
    .select(['state', 'shared_data'])
    .where('organization_id', '=', orgId)
    .where('registration_id', '=', registrationId)
    .executeTakeFirst()
}

/** Keeps the registration's sequencing state (one row per registration, the last one wins). */
export async function saveSequencingState(
  db: Db,
  orgId: string,
  registrationId: string,
  state: string,
  sharedData: Record<string, string>,
) {
  const row = { organization_id: orgId, registration_id: registrationId, state, shared_data: JSON.stringify(sharedData) }
  await db
    .insertInto('scorm_sequencing_states')
    .values(row)
    .onConflict((oc) =>
      oc.column('registration_id').doUpdateSet({ state: row.state, shared_data: row.shared_data, updated_at: sql`now()` }),
    )
    .execute()
}

/** Each SCO's outcome as its last judged session ended (Normal mode only): what rollup reads of the leaves. */
export function lastOutcomes(db: Db, registrationId: string) {
  return db
    .selectFrom('learning_sessions')
    .select(['au_index', 'completed', 'outcome', 'score_scaled'])
    .distinctOn('au_index')
    .where('registration_id', '=', registrationId)
    .where('launch_mode', '=', 'Normal')
    .where('ended_at', 'is not', null)
    .where('runtime', 'is not', null)
    .orderBy('au_index')
    .orderBy('ended_at', 'desc')
    .execute()
}
