import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. Verdicts stored for the ship summary (docs/decisions/readiness.md, readiness-6:
// "The ship summary reuses stored verdicts"). A stored verdict is used only while everything it was
// judged from is unchanged:
//   - the assignment's own fields, copied into the verdict and compared on every read;
//   - its holder's identity documents, certificates and their reviews: the triggers below add one to
//     the holder's `readiness_holders.gen` in the transaction that changes them;
//   - its registrations: `assignments.readiness_gen`, likewise;
//   - the organization's requirements and settings: `organizations.readiness_gen`, likewise;
//   - the date judged on and the default window, stored with it.
// The generations are read in the snapshot the verdict is judged in and stored with it, so a verdict
// judged while a change commits carries the old generation and is never used: no writer has to know
// about verdicts, and none waits for a reader.

// The one-active-assignment check of migration 0101 fires after every update of assignments and plans
// its statements over the transition tables each time (190 µs). The readiness triggers update
// assignments only from inside another trigger and change nothing it reads (end_date, user_id,
// ship_id): its update trigger now fires only for statements no trigger runs. Its own text as 0101 made it:
const ONE_ACTIVE_UPDATE = `create trigger assignments_one_active_update after update on assignments
     referencing old table as old_rows new table as new_rows for each statement`
const ONE_ACTIVE_FUNCTION = 'execute function seaworthy_one_active_assignment()'

const statements = [
  'alter table assignments add column readiness_gen integer not null default 0',
  'alter table organizations add column readiness_gen integer not null default 0',
  // No foreign keys: a reader's insert would share-lock the assignment (and the organization) row
  // that writers update (migration 1702). Deleted assignments take their verdict along (trigger below).
  `create table readiness_verdicts (
    assignment_id uuid primary key,
    organization_id uuid not null,
    user_id uuid not null,
    role text not null,
    due_date date,
    end_date date,
    assignment_gen integer not null,
    holder_gen integer not null,
    organization_gen integer not null,
    as_of date not null,
    default_window_days integer not null,
    blocker_count integer not null,
    codes text[] not null
  )`,
  // A person's generation; no row yet reads as 0.
  `create table readiness_holders (
    organization_id uuid not null,
    user_id uuid not null,
    gen integer not null,
    primary key (organization_id, user_id)
  )`,

  // The triggers are row-level where a statement changes one row or few, so their statements keep their
  // cached plans (a statement-level trigger's statements over its transition tables are planned on every
  // call: 300 µs of PostgreSQL time on each document created, measured), and a WHEN clause skips the
  // call where nothing the verdicts read changed.

  // One row per person: a change of their records takes one row lock, whatever their assignments.
  `create function readiness_holder_changed() returns trigger language plpgsql as $$
  begin
    if tg_op <> 'INSERT' then
      insert into readiness_holders as h (organization_id, user_id, gen) values (old.organization_id, old.user_id, 1)
      on conflict (organization_id, user_id) do update set gen = h.gen + 1;
    end if;
    if tg_op <> 'DELETE' and (tg_op = 'INSERT' or new.user_id <> old.user_id) then
      insert into readiness_holders as h (organization_id, user_id, gen) values (new.organization_id, new.user_id, 1)
      on conflict (organization_id, user_id) do update set gen = h.gen + 1;
    end if;
    return null;
  end $$`,
  `create function readiness_registration_changed() returns trigger language plpgsql as $$
  begin
    if tg_op <> 'INSERT' then
      update assignments a set readiness_gen = a.readiness_gen + 1 where a.id = old.assignment_id;
    end if;
    if tg_op <> 'DELETE' and (tg_op = 'INSERT' or new.assignment_id <> old.assignment_id) then
      update assignments a set readiness_gen = a.readiness_gen + 1 where a.id = new.assignment_id;
    end if;
    return null;
  end $$`,
  // Bulk course assignment inserts thousands of registrations in one statement: one update for them all.
  `create function readiness_registrations_inserted() returns trigger language plpgsql as $$
  begin
    update assignments a set readiness_gen = a.readiness_gen + 1 where a.id in (select assignment_id from new_rows);
    return null;
  end $$`,
  // Replacing the matrix deletes and inserts up to 200 rows: once per statement, not once per row.
  `create function readiness_requirements_changed() returns trigger language plpgsql as $$
  begin
    update organizations o set readiness_gen = o.readiness_gen + 1 where o.id in (select organization_id from changed_rows);
    return null;
  end $$`,
  `create function readiness_settings_changed() returns trigger language plpgsql as $$
  begin
    new.readiness_gen := old.readiness_gen + 1;
    return new;
  end $$`,
  `create function readiness_assignment_deleted() returns trigger language plpgsql as $$
  begin
    delete from readiness_verdicts v where v.assignment_id = old.id;
    return null;
  end $$`,

  ...['identity_documents', 'certificates'].flatMap((table) => [
    `create trigger ${table}_readiness_insert_delete after insert or delete on ${table}
      for each row execute function readiness_holder_changed()`,
    `create trigger ${table}_readiness_update after update on ${table} for each row
      when ((old.user_id, old.document_type, old.expiry_date, old.created_at) is distinct from (new.user_id, new.document_type, new.expiry_date, new.created_at))
      execute function readiness_holder_changed()`.replaceAll(
      'document_type',
      table === 'certificates' ? 'certificate_type' : 'document_type',
    ),
  ]),
  // A verification is inserted only with its document, whose own trigger counts it.
  `create trigger verifications_readiness_delete after delete on verifications for each row
    when (old.target_type in ('identity_document', 'certificate')) execute function readiness_holder_changed()`,
  `create trigger verifications_readiness_update after update on verifications for each row
    when (new.target_type in ('identity_document', 'certificate') and (old.status, old.user_id) is distinct from (new.status, new.user_id))
    execute function readiness_holder_changed()`,
  `create trigger registrations_readiness_insert after insert on registrations referencing new table as new_rows
    for each statement execute function readiness_registrations_inserted()`,
  `create trigger registrations_readiness_delete after delete on registrations for each row execute function readiness_registration_changed()`,
  // Only passing or unpassing counts: attempts that leave a registration not passed change no verdict.
  `create trigger registrations_readiness_update after update on registrations for each row
    when ((old.status = 'passed') is distinct from (new.status = 'passed') or old.assignment_id <> new.assignment_id)
    execute function readiness_registration_changed()`,
  ...['insert', 'update', 'delete'].map(
    (event) =>
      `create trigger requirements_readiness_${event} after ${event} on requirements
        referencing ${event === 'delete' ? 'old' : 'new'} table as changed_rows for each statement execute function readiness_requirements_changed()`,
  ),
  `create trigger organizations_readiness_settings before update on organizations
    for each row when (old.settings is distinct from new.settings) execute function readiness_settings_changed()`,
  `create trigger assignments_readiness_delete after delete on assignments for each row execute function readiness_assignment_deleted()`,
  'drop trigger assignments_one_active_update on assignments',
  `${ONE_ACTIVE_UPDATE} when (pg_trigger_depth() = 0) ${ONE_ACTIVE_FUNCTION}`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger assignments_one_active_update on assignments`.execute(db)
  await sql.raw(`${ONE_ACTIVE_UPDATE} ${ONE_ACTIVE_FUNCTION}`).execute(db)
  const triggers = [
    'identity_documents_readiness_insert_delete on identity_documents',
    'identity_documents_readiness_update on identity_documents',
    'certificates_readiness_insert_delete on certificates',
    'certificates_readiness_update on certificates',
    'verifications_readiness_delete on verifications',
    'verifications_readiness_update on verifications',
    'registrations_readiness_insert on registrations',
    'registrations_readiness_delete on registrations',
    'registrations_readiness_update on registrations',
    'requirements_readiness_insert on requirements',
    'requirements_readiness_update on requirements',
    'requirements_readiness_delete on requirements',
    'organizations_readiness_settings on organizations',
    'assignments_readiness_delete on assignments',
  ]
  for (const trigger of triggers) await sql.raw(`drop trigger if exists ${trigger}`).execute(db)
  const functions = [
    'holder_changed',
    'registration_changed',
    'registrations_inserted',
    'requirements_changed',
    'settings_changed',
    'assignment_deleted',
  ]
  for (const name of functions) await sql.raw(`drop function if exists readiness_${name}()`).execute(db)
  await sql`drop table if exists readiness_holders`.execute(db)
  await sql`drop table if exists readiness_verdicts`.execute(db)
  await sql`alter table organizations drop column if exists readiness_gen`.execute(db)
  await sql`alter table assignments drop column if exists readiness_gen`.execute(db)
}
