import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. A ship's type, gross tonnage and propulsion power
// (DECISIONS §14), all nullable, so existing rows and clients that send none of them keep working.
const SHIP_TYPES = [
  'bulk_carrier',
  'oil_tanker',
  'chemical_tanker',
  'gas_tanker',
  'container',
  'general_cargo',
  'ro_ro',
  'passenger',
  'offshore',
  'tug',
  'fishing',
  'other',
]

const statements = [
  `alter table ships
    add column ship_type text check (ship_type in (${SHIP_TYPES.map((type) => `'${type}'`).join(', ')})),
    add column gross_tonnage integer check (gross_tonnage > 0),
    add column propulsion_power_kw integer check (propulsion_power_kw > 0)`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table ships drop column if exists ship_type, drop column if exists gross_tonnage, drop column if exists propulsion_power_kw`.execute(
    db,
  )
}
