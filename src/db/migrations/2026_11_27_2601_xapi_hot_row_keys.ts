import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. Every statement, activity and document the LRS stores
// share-locked its organization's row to check the foreign key (1,000 checks for a batch of 1,000), and
// concurrent writers of one organization made a MultiXact on that row per request, as migration
// 2026_11_24_1702 found for the other tenant tables. Organizations are never deleted and these columns
// are only ever set from the authenticated credential, so the keys go. Credentials keep theirs (rarely written).
const DROPPED = ['xapi_statements', 'xapi_activities', 'xapi_documents', 'xapi_attachments']

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of DROPPED) {
    await sql`alter table ${sql.table(table)} drop constraint ${sql.id(`${table}_organization_id_fkey`)}`.execute(db)
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of DROPPED) {
    await sql`alter table ${sql.table(table)} add constraint ${sql.id(`${table}_organization_id_fkey`)}
      foreign key (organization_id) references organizations (id)`.execute(db)
  }
}
