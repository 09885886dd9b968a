import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. Sea-service totals kept ahead of the read, so that a page of
// the fleet sea-service list is one indexed statement (docs/decisions/crewing.md, crewing-9: "The fleet sea-service list reads
// kept totals"):
//   - sea_service_periods: each verified experience row's counted days (DECISIONS §14: its days minus those
//     of the verified rows ordered before it, by start date, then created_at, then id), not cut at any date;
//   - sea_service_totals: per person, the union of those days over every ship type (ship_type '') and per
//     ship type, and what the list sorts on. A person's days up to a date d on or after `settled_on` are
//     `rank_days`, plus (d - 2000-01-01) when the last period is open (`open`): one index orders everyone
//     whose total is settled at d. Before `settled_on` (a period ends after d) they are read from `counted`.
// Triggers refresh a person's rows, set-based, in the statement that changes their experience rows or the
// reviews of them. A transaction-scoped advisory lock per organization (in key order; one per person ran
// out of lock slots on a fleet-wide refresh) makes two concurrent refreshes of one person run one after
// the other, the second on a fresh snapshot (READ COMMITTED), so the rows never mix two states.

// src/lib/role-key.ts's trim: everything JavaScript's String.prototype.trim removes.
const WHITESPACE =
  '\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff'

const statements = [
  `create table sea_service_periods (
    experience_id uuid primary key,
    organization_id uuid not null,
    user_id uuid not null,
    ship_type text,
    role_key text not null,
    counted datemultirange not null
  )`,
  'create index sea_service_periods_user_idx on sea_service_periods (user_id, role_key)',
  `create table sea_service_totals (
    organization_id uuid not null,
    user_id uuid not null,
    ship_type text not null,
    counted datemultirange not null,
    open boolean not null,
    settled_on date not null,
    rank_days integer not null,
    primary key (user_id, ship_type)
  )`,
  // The list's order for the people settled at the date asked (one scan for closed totals, one for open).
  'create index sea_service_totals_rank_idx on sea_service_totals (organization_id, ship_type, open, rank_days desc, user_id)',
  // The people not yet settled at the date asked: read one by one from `counted`.
  'create index sea_service_totals_settled_idx on sea_service_totals (organization_id, ship_type, settled_on)',

  `create function sea_service_refresh(people uuid[]) returns void language plpgsql as $$
  begin
    perform pg_advisory_xact_lock(hashtext('seaworthy sea service'), k.key)
    from (select distinct hashtext(u.organization_id::text) as key from unnest(people) p join users u on u.id = p order by 1) k;
    delete from sea_service_periods s where s.user_id = any(people);
    insert into sea_service_periods (experience_id, organization_id, user_id, ship_type, role_key, counted)
    select c.id, c.organization_id, c.user_id, c.ship_type, c.role_key, c.counted
    from (
      select e.id, e.organization_id, e.user_id, e.ship_type, e.role_key,
        datemultirange(e.period) - coalesce(range_agg(e.period) over earlier, '{}'::datemultirange) as counted
      from (
        select x.id, x.organization_id, x.user_id, x.ship_type, lower(btrim(x.position, '${WHITESPACE}')) as role_key,
          x.start_date, x.created_at, daterange(x.start_date, x.end_date, '[]') as period
        from unnest(people) p
        join users u on u.id = p
        join experiences x on x.organization_id = u.organization_id and x.user_id = u.id
        join verifications v on v.target_type = 'experience' and v.target_id = x.id and v.status = 'verified'
      ) e
      window earlier as (partition by e.user_id order by e.start_date, e.created_at, e.id rows between unbounded preceding and 1 preceding)
    ) c
    where not isempty(c.counted);

    delete from sea_service_totals s where s.user_id = any(people);
    insert into sea_service_totals (organization_id, user_id, ship_type, counted, open, settled_on, rank_days)
    select t.organization_id, t.user_id, t.ship_type, t.counted, upper_inf(t.counted),
      case when upper_inf(t.counted) then l.last_start else upper(t.counted) - 1 end,
      case when upper_inf(t.counted) then l.closed_days + 1 - (l.last_start - date '2000-01-01') else l.closed_days end
    from (
      select s.organization_id, s.user_id, '' as ship_type, range_agg(s.counted) as counted
      from sea_service_periods s where s.user_id = any(people) group by s.organization_id, s.user_id
      union all
      select s.organization_id, s.user_id, s.ship_type, range_agg(s.counted)
      from sea_service_periods s where s.user_id = any(people) and s.ship_type <> '' group by s.organization_id, s.user_id, s.ship_type
    ) t
    cross join lateral (
      select coalesce(sum(upper(r) - lower(r)) filter (where not upper_inf(r)), 0)::int as closed_days, max(lower(r)) as last_start
      from unnest(t.counted) r
    ) l;
  end $$`,

  // Statement-level over the transition tables: the contract sweep writes many rows in one statement.
  `create function sea_service_experiences_changed() returns trigger language plpgsql as $$
  declare
    people uuid[];
  begin
    if tg_op = 'INSERT' then
      select array_agg(distinct n.user_id) into people from new_rows n;
    elsif tg_op = 'DELETE' then
      select array_agg(distinct o.user_id) into people from old_rows o;
    else
      select array_agg(distinct p.user_id) into people
      from old_rows o join new_rows n on n.id = o.id
      cross join lateral (values (o.user_id), (n.user_id)) p(user_id)
      where (o.user_id, o.position, o.ship_type, o.start_date, o.end_date, o.created_at)
        is distinct from (n.user_id, n.position, n.ship_type, n.start_date, n.end_date, n.created_at);
    end if;
    if people is not null then
      perform sea_service_refresh(people);
    end if;
    return null;
  end $$`,
  // Reviews of documents and certificates are inserted far more often than experience rows: the insert
  // trigger looks for verified experience reviews once per statement, updates and deletes are row-level.
  `create function sea_service_reviews_inserted() returns trigger language plpgsql as $$
  declare
    people uuid[];
  begin
    select array_agg(distinct n.user_id) into people from new_rows n where n.target_type = 'experience' and n.status = 'verified';
    if people is not null then
      perform sea_service_refresh(people);
    end if;
    return null;
  end $$`,
  `create function sea_service_review_changed() returns trigger language plpgsql as $$
  begin
    if tg_op = 'DELETE' then
      perform sea_service_refresh(array[old.user_id]);
    else
      perform sea_service_refresh(array[old.user_id, new.user_id]);
    end if;
    return null;
  end $$`,

  ...['insert', 'update', 'delete'].map(
    (event) =>
      `create trigger experiences_sea_service_${event} after ${event} on experiences
        referencing ${event === 'insert' ? 'new table as new_rows' : event === 'delete' ? 'old table as old_rows' : 'old table as old_rows new table as new_rows'}
        for each statement execute function sea_service_experiences_changed()`,
  ),
  `create trigger verifications_sea_service_insert after insert on verifications referencing new table as new_rows
    for each statement execute function sea_service_reviews_inserted()`,
  `create trigger verifications_sea_service_totals_update after update on verifications for each row
    when ((new.target_type = 'experience' or old.target_type = 'experience')
      and ((old.status = 'verified') is distinct from (new.status = 'verified') or (old.user_id, old.target_id, old.target_type) is distinct from (new.user_id, new.target_id, new.target_type)))
    execute function sea_service_review_changed()`,
  `create trigger verifications_sea_service_delete after delete on verifications for each row
    when (old.target_type = 'experience' and old.status = 'verified') execute function sea_service_review_changed()`,

  // Every person with experience rows, as the triggers would have kept them.
  'select sea_service_refresh(array(select distinct x.user_id from experiences x))',
  // Statistics at once: planned on an empty table's guesses, the first page took a bitmap scan of every row (45 ms, not 2).
  'analyze sea_service_periods, sea_service_totals',
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  const triggers = [
    'experiences_sea_service_insert on experiences',
    'experiences_sea_service_update on experiences',
    'experiences_sea_service_delete on experiences',
    'verifications_sea_service_insert on verifications',
    'verifications_sea_service_totals_update on verifications',
    'verifications_sea_service_delete on verifications',
  ]
  for (const trigger of triggers) await sql.raw(`drop trigger if exists ${trigger}`).execute(db)
  for (const name of ['experiences_changed', 'reviews_inserted', 'review_changed'])
    await sql.raw(`drop function if exists sea_service_${name}()`).execute(db)
  await sql`drop function if exists sea_service_refresh(uuid[])`.execute(db)
  await sql`drop table if exists sea_service_totals`.execute(db)
  await sql`drop table if exists sea_service_periods`.execute(db)
}
