// The seed as a handful of set-based statements over `seed_plan` (one row per organization).
// Ids are derived from (kind, organization number, row number), so every statement can refer to
// rows of another table without a join; values come from hashes of the row number, so a re-seed
// produces the same data.

export const SETUP = [
  `create or replace function pg_temp.uid(kind text, org integer, n bigint) returns uuid
     language sql immutable parallel safe
     as $$ select overlay(overlay(md5(kind || org || ':' || n) placing '4' from 13) placing '8' from 17)::uuid $$`,
  // (h(n) % m) as a non-negative integer, from PostgreSQL's own integer hash.
  `create or replace function pg_temp.h(n bigint, m integer) returns integer
     language sql immutable parallel safe
     as $$ select (abs(hashint8(n)::bigint) % m)::integer $$`,
  `create temp table seed_plan (
     org_no integer primary key, org_id uuid not null, users integer not null, ships integer not null,
     courses integer not null, reg_courses integer not null, assignments integer not null,
     regs_per integer not null, docs integer not null
   ) on commit drop`,
]

const FIRST = `array['James','Maria','Olek','Priya','Juan','Anna','Mehmet','Li','Sven','Grace','Tomasz','Aisha','Nikos','Rosa','Ivan','Mei','Carlos','Elena','Kofi','Hana']`
const LAST = `array['Santos','Kowalski','Reyes','Hansen','Novak','Garcia','Petrov','Nguyen','Silva','Jensen','Kumar','Cruz','Popescu','Ivanova','Dela Cruz','Larsen','Costa','Yilmaz','Andersen','Mendoza']`
const ROLES = `array['Captain','First Officer','Second Officer','Third Officer','Bosun','Able Seaman','Ordinary Seaman','Chief Engineer','Second Engineer','Third Engineer','Cook','Steward']`
// 24 topics: a search for one topic word matches about 1 course in 24.
const TOPICS = `array['Ballast Water Management','Fire Prevention and Fire Fighting','Enclosed Space Entry','Medical First Aid','ECDIS Navigation','Bridge Resource Management','Engine Room Resource Management','Cyber Security Awareness','Oil Spill Response','Survival Craft and Rescue Boats','Ship Security Awareness','Cargo Handling and Stowage','MARPOL Compliance','Crowd Management','Dangerous Goods','Mooring Operations','GMDSS Radio Operations','Working at Height','Hazardous Materials','Ice Navigation','Personal Survival Techniques','Tanker Familiarisation','Pollution Prevention','Leadership and Teamwork']`
const LEVELS = `array['Basic','Advanced','Refresher','Assessment','Onboard Drill']`
const COUNTRIES = `array['PH','IN','UA','PL','GB','NO','GR','HR','ID','RO','LV','MM','CN','TR','BG']`
const ts = (expr: string) => `date_trunc('milliseconds', ${expr})`

export const ORGANIZATIONS = `insert into organizations (id, name, domain, products, created_at)
  select org_id, 'Bench Fleet ' || org_no, 'fleet' || org_no || '.bench.example', array['learn','crew'],
    ${ts(`now() - interval '3 years' + org_no * interval '1 day'`)}
  from seed_plan`

// User 0 is the admin, 1 an office admin, 2-4 office employees, the rest crew.
export const USERS = `insert into users (id, organization_id, email, first_name, last_name, role, state, password_hash, created_at, updated_at)
  select pg_temp.uid('u', p.org_no, n), p.org_id, 'user' || n || '@fleet' || p.org_no || '.bench.example',
    (${FIRST})[1 + n % 20], (${LAST})[1 + (n / 20) % 20],
    case when n = 0 then 'admin' when n = 1 then 'office_admin' when n < 5 then 'office_employee' else 'crew' end,
    'active', current_setting('bench.password_hash'), t, t
  from seed_plan p, generate_series(0, p.users - 1) n, ${ts(`now() - interval '2 days' - n * interval '17 minutes'`)} t`

// IMO numbers 9xxxxxx with a valid check digit (weights 7..2 over the first six digits).
export const SHIPS = `insert into ships (id, organization_id, name, imo_number, mmsi, call_sign, flag, port_of_registry, created_at, updated_at)
  select pg_temp.uid('s', p.org_no, n), p.org_id, 'MV ' || (${LAST})[1 + n % 20] || ' ' || (n + 1),
    b::text || ((7 * (b / 100000) + 6 * (b / 10000 % 10) + 5 * (b / 1000 % 10) + 4 * (b / 100 % 10) + 3 * (b / 10 % 10) + 2 * (b % 10)) % 10)::text,
    (538000000 + n)::text, 'V7' || n, (array['Marshall Islands','Liberia','Panama','Malta','Bahamas'])[1 + n % 5], null, t, t
  from seed_plan p, generate_series(0, p.ships - 1) n, lateral (select 900000 + n as b) imo,
    ${ts(`now() - interval '700 days' + n * interval '11 minutes'`)} t`

export const COURSES = `insert into courses (id, organization_id, title, description, s3_path, launch_file, created_at, updated_at)
  select pg_temp.uid('c', p.org_no, n), p.org_id,
    (${TOPICS})[1 + n % 24] || ': ' || (${LEVELS})[1 + (n / 24) % 5] || ' ' || (n / 120 + 1),
    'Module ' || (n / 120 + 1) || ' of the ' || (${TOPICS})[1 + n % 24] || ' programme.',
    'courses/fleet' || p.org_no || '/' || n || '/', 'index.html', t, t
  from seed_plan p, generate_series(0, p.courses - 1) n, ${ts(`now() - interval '2 days' - n * interval '187 seconds'`)} t`

// Assignment n is user n % users's (n / users)-th contract. Its ship advances by `step` per contract, so
// the user is back on the same ship after ships / gcd(step, ships) contracts (only where ships are few:
// never in the largest organization at SCALE=1). A contract with a later one on the same ship has
// ended before today: a user holds one active assignment per ship (migration 2026_11_23_0101).
export const ASSIGNMENTS = `insert into assignments (id, organization_id, user_id, ship_id, role, start_date, due_date, end_date, created_at, updated_at)
  select pg_temp.uid('a', p.org_no, n), p.org_id, pg_temp.uid('u', p.org_no, n % p.users),
    pg_temp.uid('s', p.org_no, (n % p.users + (n / p.users) * g.step) % p.ships),
    (${ROLES})[1 + pg_temp.h(n, 12)],
    case when r.rejoins then least(s, current_date - 1) else s end, s + 30,
    case when r.rejoins then least(s + 120, current_date - 1) when pg_temp.h(-n, 10) < 3 then s + 120 else null end, t, t
  from seed_plan p, lateral (select greatest(1, p.ships / 5) as step) g, generate_series(0, p.assignments - 1) n,
    lateral (select current_date - pg_temp.h(n, 900) as s) d,
    lateral (select n / p.users + p.ships / gcd(g.step, p.ships) <= (p.assignments - 1 - n % p.users) / p.users as rejoins) r,
    ${ts(`now() - interval '2 days' - n * interval '3 minutes'`)} t`

// Registration r is course k (0 ≤ k < regs_per) of assignment r / regs_per; the courses of one
// assignment are regs_per apart, so they are distinct. Courses from reg_courses on never get one.
// Attempts are built from the registrations' own figures: the last attempt holds the best score
// and, for a passed registration, the pass.
export const LEARNING = `with pairs as materialized (
    select p.org_no, p.org_id, r, pg_temp.uid('a', p.org_no, a) as assignment_id,
      pg_temp.uid('c', p.org_no, (a + k * (p.reg_courses / p.regs_per)) % p.reg_courses) as course_id,
      (a + k * (p.reg_courses / p.regs_per)) % p.reg_courses as c, pg_temp.h(r, 7) as cnt, ${ts(`now() - interval '2 days' - a * interval '3 minutes' + k * interval '1 second'`)} as created
    from seed_plan p, generate_series(0, p.assignments * p.regs_per - 1) r, lateral (select r / p.regs_per as a, r % p.regs_per as k) x
  ), outcome as materialized (
    select *, cnt > 0 and pg_temp.h(-r, 100) < 95 - 8 * (c % 10) as passed, 300 + pg_temp.h(r + 7, 900) as secs from pairs
  ), links as (
    insert into assignment_courses (assignment_id, course_id, organization_id, created_at)
    select assignment_id, course_id, org_id, created from outcome
  ), regs as (
    insert into registrations (id, organization_id, assignment_id, course_id, status, completed_at, score_percent, time_spent_seconds, attempt_count, created_at, updated_at)
    select pg_temp.uid('r', org_no, r), org_id, assignment_id, course_id,
      case when cnt = 0 then 'not_started' when passed then 'passed' else 'failed' end,
      case when passed then created + cnt * interval '2 hours' end,
      case when cnt = 0 then null when passed then 70 + pg_temp.h(r + 3, 31) else 20 + pg_temp.h(r + 3, 50) end,
      cnt * secs, cnt, created, created + cnt * interval '2 hours'
    from outcome
    returning id, organization_id, status, score_percent, time_spent_seconds, attempt_count, created_at
  )
  insert into attempts (registration_id, attempt_id, organization_id, passed, score_percent, time_spent_seconds, finished_at, created_at)
  select id, gen_random_uuid(), organization_id, status = 'passed' and g = attempt_count,
    greatest(0, score_percent - (attempt_count - g) * 4), time_spent_seconds / attempt_count, f, f
  from regs, generate_series(1, attempt_count) g, lateral (select created_at + g * interval '2 hours' as f) fin`

export const COURSE_STATS = `insert into course_stats (course_id, organization_id, enrollments, attempted, attempts_total, passed)
  select c.id, c.organization_id, count(r.id), count(r.id) filter (where r.attempt_count >= 1),
    coalesce(sum(r.attempt_count), 0), count(r.id) filter (where r.status = 'passed')
  from courses c left join registrations r on r.course_id = c.id
  group by c.id`

// Three documents per user; verifications: 70 % verified, 20 % pending (the review queue), 10 % rejected.
export const IDENTITY_DOCUMENTS = `with docs as (
    insert into identity_documents (id, organization_id, user_id, document_type, document_number, issuing_country,
      issue_date, expiry_date, upload_id, uploaded_by_user_id, notes, created_at, updated_at)
    select pg_temp.uid('d', p.org_no, n), p.org_id, pg_temp.uid('u', p.org_no, (n / 3) % p.users),
      (array['passport','seaman_book','us_visa','national_id'])[1 + n % 3 + (n / 3 % 2) * (n % 3 / 2)],
      chr(65 + pg_temp.h(n, 26)) || lpad(pg_temp.h(n + 1, 100000000)::text, 8, '0'), (${COUNTRIES})[1 + pg_temp.h(n + 2, 15)],
      e - 3650, e, null, pg_temp.uid('u', p.org_no, (n / 3) % p.users), null, t, t
    from seed_plan p, generate_series(0, p.docs - 1) n, lateral (select current_date + pg_temp.h(n + 3, 3650) - 400 as e) ex,
      ${ts(`now() - interval '2 days' - n * interval '5 minutes'`)} t
    returning id, organization_id, user_id, created_at
  )
  insert into verifications (target_type, target_id, organization_id, user_id, status, rejection_reason, reviewed_at,
    reviewer_user_id, submitted_at, created_at, updated_at)
  select 'identity_document', d.id, d.organization_id, d.user_id, v.status,
    case when v.status = 'rejected' then 'The scan is not legible: please upload a sharper copy.' end,
    case when v.status <> 'pending' then d.created_at + interval '1 day' end,
    case when v.status <> 'pending' then pg_temp.uid('u', p.org_no, 1) end,
    d.created_at, d.created_at, case when v.status <> 'pending' then d.created_at + interval '1 day' else d.created_at end
  from docs d join seed_plan p on p.org_id = d.organization_id,
    lateral (select case when x < 70 then 'verified' when x < 90 then 'pending' else 'rejected' end as status
             from (select abs(hashtext(d.id::text)::bigint) % 100 as x) hx) v`

// Two certificates per user (STCW basic safety and medical), expiring from 200 days ago to 5 years ahead;
// verifications like the documents'.
export const CERTIFICATES = `with certs as (
    insert into certificates (id, organization_id, user_id, certificate_type, certificate_number, issuing_authority,
      issue_date, expiry_date, upload_id, uploaded_by_user_id, notes, created_at, updated_at)
    select pg_temp.uid('t', p.org_no, n), p.org_id, pg_temp.uid('u', p.org_no, n / 2),
      (array['stcw_basic_safety','medical'])[1 + n % 2], 'C' || lpad(pg_temp.h(n + 5, 100000000)::text, 8, '0'),
      'Maritime Authority', e - 1825, e, null, pg_temp.uid('u', p.org_no, n / 2), null, t, t
    from seed_plan p, generate_series(0, p.users * 2 - 1) n, lateral (select current_date + pg_temp.h(n + 11, 1825) - 200 as e) ex,
      ${ts(`now() - interval '2 days' - n * interval '7 minutes'`)} t
    returning id, organization_id, user_id, created_at
  )
  insert into verifications (target_type, target_id, organization_id, user_id, status, rejection_reason, reviewed_at,
    reviewer_user_id, submitted_at, created_at, updated_at)
  select 'certificate', c.id, c.organization_id, c.user_id, v.status,
    case when v.status = 'rejected' then 'The certificate number does not match the scan.' end,
    case when v.status <> 'pending' then c.created_at + interval '1 day' end,
    case when v.status <> 'pending' then pg_temp.uid('u', p.org_no, 1) end,
    c.created_at, c.created_at, case when v.status <> 'pending' then c.created_at + interval '1 day' else c.created_at end
  from certs c join seed_plan p on p.org_id = c.organization_id,
    lateral (select case when x < 70 then 'verified' when x < 90 then 'pending' else 'rejected' end as status
             from (select abs(hashtext(c.id::text)::bigint) % 100 as x) hx) v`

// Four sea-service periods per user over the last eight years, neighbours overlapping now and then (DECISIONS
// §14); one user in ten is at sea (their last period open); 80 % verified (counted), the rest waiting for review.
export const EXPERIENCES = `with rows as (
    insert into experiences (id, organization_id, user_id, company_name, position, ship_type, start_date, end_date, notes,
      created_at, updated_at)
    select pg_temp.uid('x', p.org_no, n), p.org_id, pg_temp.uid('u', p.org_no, n / 4), 'Bench Line', (${ROLES})[1 + pg_temp.h(n / 4, 12)],
      (array['bulk_carrier','oil_tanker','container','general_cargo'])[1 + pg_temp.h(n + 7, 4)], s,
      case when n % 4 <> 3 or pg_temp.h(n + 17, 10) > 0 then s + 90 + pg_temp.h(n + 9, 200) end, null, t, t
    from seed_plan p, generate_series(0, p.users * 4 - 1) n,
      lateral (select current_date - 2900 + (n % 4) * 700 + pg_temp.h(n + 13, 120) as s) st,
      ${ts(`now() - interval '3 days' - n * interval '3 minutes'`)} t
    returning id, organization_id, user_id, created_at
  )
  insert into verifications (target_type, target_id, organization_id, user_id, status, reviewed_at, reviewer_user_id, submitted_at,
    created_at, updated_at)
  select 'experience', x.id, x.organization_id, x.user_id, v.status, case when v.status = 'verified' then x.created_at + interval '1 day' end,
    case when v.status = 'verified' then pg_temp.uid('u', p.org_no, 1) end, x.created_at, x.created_at, x.created_at
  from rows x join seed_plan p on p.org_id = x.organization_id,
    lateral (select case when abs(hashtext(x.id::text)::bigint) % 100 < 80 then 'verified' else 'pending' end as status) v`

// The largest organization's readiness settings and requirements matrix (DECISIONS §10).
export const READINESS = [
  `update organizations set settings = '{"expiryWindowDays": {"passport": 180, "medical": 60},
     "validityMarginDays": {"passport": 180}, "openEndedHorizonDays": 180}'::jsonb
   where id = pg_temp.uid('o', 0, 0)`,
  `insert into requirements (organization_id, position, role, document_types, certificate_types)
   select pg_temp.uid('o', 0, 0), r.position, r.role, r.documents, r.certificates
   from (values
     (0, '*', array['passport','seaman_book'], array['stcw_basic_safety','medical']),
     (1, 'Captain', array['us_visa'], array['deck_certificate','gmdss_endorsement']),
     (2, 'Chief Engineer', array[]::text[], array['oil_tanker_endorsement']),
     (3, 'Cook', array[]::text[], array[]::text[])
   ) as r(position, role, documents, certificates)`,
]

// The kept sea-service totals (migration 2904): the seed skips triggers (session_replication_role), so it
// refreshes every person with experience rows in one call, as the triggers would have.
export const SEA_SERVICE_TOTALS = 'select sea_service_refresh(array(select distinct x.user_id from experiences x))'
