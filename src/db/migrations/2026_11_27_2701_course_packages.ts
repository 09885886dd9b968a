import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. Course packages (DECISIONS §13.2): an import job per
// uploaded package; a package version per successful import, its files under `storage_prefix`; its
// AUs (cmi5) or SCOs (SCORM) in launch order. A course points at its current package version;
// registrations launched on an older one keep it. `courses.package_id` has no foreign key: the
// package row references the course (and goes with it), and a second reference back would make the
// pair undeletable in one statement.
const statements = [
  `create table course_imports (
    id uuid primary key,
    organization_id uuid not null references organizations(id),
    upload_id uuid not null references uploads(id),
    course_id uuid references courses(id) on delete set null,
    status text not null check (status in ('running', 'complete', 'failed')),
    standard text check (standard in ('cmi5', 'scorm12', 'scorm2004')),
    errors jsonb not null default '[]',
    created_by uuid not null references users(id),
    request_id text,
    created_at timestamptz not null default now(),
    finished_at timestamptz
  )`,
  `create index course_imports_org_idx on course_imports (organization_id, id)`,
  `create table course_packages (
    id uuid primary key,
    organization_id uuid not null references organizations(id),
    course_id uuid not null references courses(id) on delete cascade,
    standard text not null check (standard in ('cmi5', 'scorm12', 'scorm2004')),
    storage_prefix text not null,
    publisher_id text,
    blocks jsonb not null default '[]',
    created_at timestamptz not null default now()
  )`,
  `create index course_packages_course_idx on course_packages (organization_id, course_id)`,
  `create table course_aus (
    package_id uuid not null references course_packages(id) on delete cascade,
    au_index integer not null,
    publisher_id text not null,
    title text not null,
    url text not null,
    move_on text not null,
    mastery_score double precision,
    launch_method text not null,
    launch_parameters text,
    entitlement_key text,
    activity_type text,
    primary key (package_id, au_index)
  )`,
  `alter table courses add column package_id uuid`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table courses drop column if exists package_id`.execute(db)
  await sql`drop table if exists course_aus`.execute(db)
  await sql`drop table if exists course_packages`.execute(db)
  await sql`drop table if exists course_imports`.execute(db)
}
