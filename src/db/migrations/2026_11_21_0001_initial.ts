import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. created_at defaults are truncated to
// milliseconds so that keyset cursors round-trip exactly through JavaScript dates.
const statements = [
  `create extension if not exists pg_trgm`,

  `create table organizations (
    id uuid primary key,
    name text not null,
    domain text,
    products text[] not null default array['learn','crew'],
    created_at timestamptz not null default date_trunc('milliseconds', clock_timestamp())
  )`,

  `create table users (
    id uuid primary key,
    organization_id uuid not null references organizations(id),
    email text not null,
    first_name text not null,
    last_name text not null,
    role text not null check (role in ('admin','office_admin','office_employee','crew')),
    state text not null check (state in ('active','pending','suspended')),
    password_hash text,
    last_login timestamptz,
    created_at timestamptz not null default date_trunc('milliseconds', clock_timestamp()),
    updated_at timestamptz not null default date_trunc('milliseconds', clock_timestamp())
  )`,
  `create unique index users_email_lower_key on users (lower(email))`,
  `create index users_org_created_idx on users (organization_id, created_at desc, id desc)`,

  `create table login_failures (
    id bigserial primary key,
    email_lower text not null,
    address text not null,
    created_at timestamptz not null default clock_timestamp()
  )`,
  `create index login_failures_email_idx on login_failures (email_lower, created_at)`,
  `create index login_failures_address_idx on login_failures (address, created_at)`,

  `create table ships (
    id uuid primary key,
    organization_id uuid not null references organizations(id),
    name text not null,
    imo_number text not null,
    mmsi text,
    call_sign text,
    flag text,
    port_of_registry text,
    created_at timestamptz not null default date_trunc('milliseconds', clock_timestamp()),
    updated_at timestamptz not null default date_trunc('milliseconds', clock_timestamp()),
    unique (organization_id, imo_number)
  )`,
  `create index ships_org_created_idx on ships (organization_id, created_at desc, id desc)`,

  `create table uploads (
    id uuid primary key,
    organization_id uuid not null references organizations(id),
    user_id uuid not null references users(id),
    kind text not null,
    mime text not null,
    declared_size bigint not null,
    original_filename text not null,
    storage_key text not null,
    status text not null check (status in ('pending','uploaded','ready','rejected')),
    size_bytes bigint,
    sha256 text,
    width integer,
    height integer,
    page_count integer,
    threat_name text,
    derivatives jsonb not null default '[]'::jsonb,
    created_at timestamptz not null default date_trunc('milliseconds', clock_timestamp()),
    updated_at timestamptz not null default date_trunc('milliseconds', clock_timestamp())
  )`,
  `create index uploads_org_idx on uploads (organization_id, user_id)`,

  `create table identity_documents (
    id uuid primary key,
    organization_id uuid not null references organizations(id),
    user_id uuid not null references users(id),
    document_type text not null,
    document_number text,
    issuing_country text,
    issue_date date,
    expiry_date date,
    upload_id uuid references uploads(id),
    uploaded_by_user_id uuid not null references users(id),
    notes text,
    created_at timestamptz not null default date_trunc('milliseconds', clock_timestamp()),
    updated_at timestamptz not null default date_trunc('milliseconds', clock_timestamp())
  )`,
  `create index identity_documents_user_idx on identity_documents (organization_id, user_id, created_at)`,

  `create table certificates (
    id uuid primary key,
    organization_id uuid not null references organizations(id),
    user_id uuid not null references users(id),
    certificate_type text not null,
    certificate_number text,
    issuing_authority text,
    issue_date date,
    expiry_date date,
    upload_id uuid references uploads(id),
    uploaded_by_user_id uuid not null references users(id),
    notes text,
    created_at timestamptz not null default date_trunc('milliseconds', clock_timestamp()),
    updated_at timestamptz not null default date_trunc('milliseconds', clock_timestamp())
  )`,
  `create index certificates_user_idx on certificates (organization_id, user_id, created_at)`,

  `create table experiences (
    id uuid primary key,
    organization_id uuid not null references organizations(id),
    user_id uuid not null references users(id),
    company_name text not null,
    position text not null,
    ship_type text,
    start_date date not null,
    end_date date,
    notes text,
    created_at timestamptz not null default date_trunc('milliseconds', clock_timestamp()),
    updated_at timestamptz not null default date_trunc('milliseconds', clock_timestamp())
  )`,
  `create index experiences_user_idx on experiences (organization_id, user_id, start_date desc)`,

  `create table next_of_kin (
    id uuid primary key,
    organization_id uuid not null references organizations(id),
    user_id uuid not null references users(id),
    relationship text not null,
    full_name text not null,
    phone text,
    email text,
    address text,
    created_at timestamptz not null default date_trunc('milliseconds', clock_timestamp()),
    updated_at timestamptz not null default date_trunc('milliseconds', clock_timestamp())
  )`,
  `create index next_of_kin_user_idx on next_of_kin (organization_id, user_id, created_at)`,

  `create table verifications (
    target_type text not null check (target_type in ('identity_document','certificate','experience')),
    target_id uuid not null,
    organization_id uuid not null references organizations(id),
    user_id uuid not null references users(id),
    status text not null check (status in ('not_submitted','pending','verified','rejected')),
    rejection_reason text,
    reviewed_at timestamptz,
    reviewer_user_id uuid references users(id),
    submitted_at timestamptz,
    created_at timestamptz not null default date_trunc('milliseconds', clock_timestamp()),
    updated_at timestamptz not null default date_trunc('milliseconds', clock_timestamp()),
    primary key (target_type, target_id)
  )`,
  `create index verifications_queue_idx on verifications (organization_id, status, submitted_at, target_id)`,
  `create index verifications_user_idx on verifications (organization_id, user_id)`,

  `create table verification_events (
    id bigserial primary key,
    organization_id uuid not null references organizations(id),
    target_type text not null,
    target_id uuid not null,
    from_status text,
    to_status text not null,
    action text not null,
    actor_user_id uuid references users(id),
    reason text,
    created_at timestamptz not null default clock_timestamp()
  )`,
  `create index verification_events_target_idx on verification_events (target_type, target_id, id)`,

  `create table courses (
    id uuid primary key,
    organization_id uuid not null references organizations(id),
    title text not null,
    description text,
    s3_path text not null,
    launch_file text not null,
    created_at timestamptz not null default date_trunc('milliseconds', clock_timestamp()),
    updated_at timestamptz not null default date_trunc('milliseconds', clock_timestamp())
  )`,
  `create index courses_org_created_idx on courses (organization_id, created_at desc, id desc)`,
  `create index courses_title_trgm_idx on courses using gin (title gin_trgm_ops)`,

  // Per-course counters kept in the same transaction as each registration and attempt,
  // so course difficulty reads an index instead of aggregating millions of attempts.
  `create table course_stats (
    course_id uuid primary key references courses(id) on delete cascade,
    organization_id uuid not null references organizations(id),
    enrollments integer not null default 0,
    attempted integer not null default 0,
    attempts_total bigint not null default 0,
    passed integer not null default 0
  )`,
  `create index course_stats_difficulty_idx on course_stats (
    organization_id,
    (case when attempted = 0 then 0::float8 else passed::float8 / attempted end) asc,
    (case when attempted = 0 then 0::float8 else attempts_total::float8 / attempted end) desc,
    enrollments desc,
    course_id asc
  ) where enrollments > 0`,

  `create table curriculums (
    id uuid primary key,
    organization_id uuid not null references organizations(id),
    title text not null,
    description text not null default '',
    created_at timestamptz not null default date_trunc('milliseconds', clock_timestamp()),
    updated_at timestamptz not null default date_trunc('milliseconds', clock_timestamp())
  )`,
  `create index curriculums_org_created_idx on curriculums (organization_id, created_at desc, id desc)`,

  `create table curriculum_courses (
    curriculum_id uuid not null references curriculums(id) on delete cascade,
    course_id uuid not null references courses(id) on delete cascade,
    organization_id uuid not null references organizations(id),
    position bigserial not null,
    primary key (curriculum_id, course_id)
  )`,

  `create table assignments (
    id uuid primary key,
    organization_id uuid not null references organizations(id),
    user_id uuid not null references users(id),
    ship_id uuid not null references ships(id),
    role text not null,
    start_date date,
    due_date date,
    end_date date,
    created_at timestamptz not null default date_trunc('milliseconds', clock_timestamp()),
    updated_at timestamptz not null default date_trunc('milliseconds', clock_timestamp())
  )`,
  `create index assignments_org_created_idx on assignments (organization_id, created_at desc, id desc)`,
  `create index assignments_ship_idx on assignments (organization_id, ship_id, created_at desc, id desc)`,
  `create index assignments_user_idx on assignments (organization_id, user_id, created_at desc, id desc)`,

  `create table assignment_courses (
    assignment_id uuid not null references assignments(id) on delete cascade,
    course_id uuid not null references courses(id) on delete cascade,
    organization_id uuid not null references organizations(id),
    created_at timestamptz not null default date_trunc('milliseconds', clock_timestamp()),
    primary key (assignment_id, course_id)
  )`,

  `create table registrations (
    id uuid primary key,
    organization_id uuid not null references organizations(id),
    assignment_id uuid not null references assignments(id) on delete cascade,
    course_id uuid not null references courses(id) on delete cascade,
    status text not null default 'not_started' check (status in ('not_started','in_progress','passed','failed')),
    completed_at timestamptz,
    score_percent integer,
    time_spent_seconds integer not null default 0,
    attempt_count integer not null default 0,
    created_at timestamptz not null default date_trunc('milliseconds', clock_timestamp()),
    updated_at timestamptz not null default date_trunc('milliseconds', clock_timestamp()),
    unique (assignment_id, course_id)
  )`,
  `create index registrations_course_idx on registrations (course_id)`,
  `create index registrations_org_created_idx on registrations (organization_id, created_at desc, id desc)`,

  `create table attempts (
    registration_id uuid not null references registrations(id) on delete cascade,
    attempt_id uuid not null,
    organization_id uuid not null references organizations(id),
    passed boolean not null,
    score_percent integer,
    time_spent_seconds integer,
    finished_at timestamptz,
    created_at timestamptz not null default clock_timestamp(),
    primary key (registration_id, attempt_id)
  )`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'attempts',
    'registrations',
    'assignment_courses',
    'assignments',
    'curriculum_courses',
    'curriculums',
    'course_stats',
    'courses',
    'verification_events',
    'verifications',
    'next_of_kin',
    'experiences',
    'certificates',
    'identity_documents',
    'uploads',
    'ships',
    'login_failures',
    'users',
    'organizations',
  ]) {
    await sql.raw(`drop table if exists ${table}`).execute(db)
  }
}
