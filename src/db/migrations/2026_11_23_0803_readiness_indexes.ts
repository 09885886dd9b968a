import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. The plans behind them are in docs/performance.md.
const statements = [
  // Fleet readiness pages in (startDate, id) order, no start date last: a range scan from the cursor.
  `create index assignments_readiness_idx on assignments (organization_id, (coalesce(start_date, 'infinity'::date)), id)`,
  // The same order within one ship (ship_id filter): without it the scan above walks the fleet to fill a page.
  `create index assignments_ship_readiness_idx on assignments (organization_id, ship_id, (coalesce(start_date, 'infinity'::date)), id)`,
  // The fleet expiry list merges both tables in (expiryDate, id) order from the cursor.
  `create index identity_documents_expiry_idx on identity_documents (organization_id, expiry_date, id) where expiry_date is not null`,
  `create index certificates_expiry_idx on certificates (organization_id, expiry_date, id) where expiry_date is not null`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists certificates_expiry_idx`.execute(db)
  await sql`drop index if exists identity_documents_expiry_idx`.execute(db)
  await sql`drop index if exists assignments_ship_readiness_idx`.execute(db)
  await sql`drop index if exists assignments_readiness_idx`.execute(db)
}
