import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. The sea-service refresh (migration 2904) locked the
// organization of the people it refreshed, so every write that touched any person's sea service in one
// organization waited for every other (profiled: a 10-id bulk update spent most of its time waiting,
// docs/performance.md). A refresh of a few people now locks each person and shares the organization's
// lock; one of many (the contract sweep, a bulk write) still takes the organization's lock whole, which
// waits for the shared holders. Keys are taken in order, organizations first, so two refreshes cannot
// wait on each other the other way round. Locks per person are bounded: per-person locks for a
// fleet-wide refresh ran out of lock slots.

// src/lib/role-key.ts's trim: everything JavaScript's String.prototype.trim removes.
const WHITESPACE =
  '\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff'

// The largest refresh that locks person by person: far below max_locks_per_transaction × connections.
const PERSON_LOCKS_UP_TO = 100

const ORGANIZATIONS = `(select distinct hashtext(u.organization_id::text) as key from unnest(people) p join users u on u.id = p order by 1) k`

const PERSON_LOCKS = `    if cardinality(people) <= ${PERSON_LOCKS_UP_TO} then
      perform pg_advisory_xact_lock_shared(hashtext('seaworthy sea service'), k.key) from ${ORGANIZATIONS};
      perform pg_advisory_xact_lock(hashtext('seaworthy sea service person'), k.key)
      from (select distinct hashtext(p::text) as key from unnest(people) p order by 1) k;
    else
      perform pg_advisory_xact_lock(hashtext('seaworthy sea service'), k.key) from ${ORGANIZATIONS};
    end if;
`

const ORGANIZATION_LOCK = `    perform pg_advisory_xact_lock(hashtext('seaworthy sea service'), k.key) from ${ORGANIZATIONS};
`

const refresh = (lock: string) =>
  `create or replace function sea_service_refresh(people uuid[]) returns void language plpgsql as $$
  begin
${lock}    delete from sea_service_periods s where s.user_id = any(people);
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
  end $$`

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(refresh(PERSON_LOCKS)).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(refresh(ORGANIZATION_LOCK)).execute(db)
}
