-- Sea service: the counted periods and totals kept from verified experiences.

CREATE OR REPLACE FUNCTION public.sea_service_counted_periods(org uuid, person uuid, as_of date)
 RETURNS TABLE(id uuid, user_id uuid, "position" text, ship_type text, start_date date, end_date date, created_at timestamp with time zone, source text, assignment_id uuid, verified boolean, own daterange, counted datemultirange)
 LANGUAGE sql
 STABLE
AS $function$
    -- DECISIONS §14's counting rule, written once: the sea-service summary, the readiness rule (through
    -- their queries) and the stored totals (sea_service_refresh) read it. One row per experience of the
    -- person starting on or before as_of (null: no limit); "own" is its days up to as_of, "counted" the
    -- days it contributes (empty unless verified): its days minus those of the verified periods ordered
    -- before it (earlier start, then earlier created), taken as one multirange by a window aggregate.
    select e.id, e.user_id, e.position, e.ship_type, e.start_date, e.end_date, e.created_at, e.source, e.assignment_id, e.verified,
      daterange(e.start_date, least(e.end_date, as_of), '[]') as own,
      case when e.verified
        then (datemultirange(e.period) - coalesce(range_agg(e.period) filter (where e.verified) over earlier, '{}'::datemultirange))
          * datemultirange(daterange(null, as_of, '[]'))
        else '{}'::datemultirange
      end as counted
    from (
      select x.id, x.user_id, x.position, x.ship_type, x.start_date, x.end_date, x.created_at, x.source, x.assignment_id,
        daterange(x.start_date, x.end_date, '[]') as period, coalesce(v.status = 'verified', false) as verified
      from experiences x
      left join verifications v on v.target_type = 'experience' and v.target_id = x.id
      where x.organization_id = org and x.user_id = person and (as_of is null or x.start_date <= as_of)
    ) e
    window earlier as (partition by e.user_id order by e.start_date, e.created_at, e.id rows between unbounded preceding and 1 preceding)
  $function$;

CREATE OR REPLACE FUNCTION public.sea_service_refresh(people uuid[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
  begin
    if cardinality(people) <= 100 then
      perform pg_advisory_xact_lock_shared(hashtext('seaworthy sea service'), k.key) from (select distinct hashtext(u.organization_id::text) as key from unnest(people) p join users u on u.id = p order by 1) k;
      perform pg_advisory_xact_lock(hashtext('seaworthy sea service person'), k.key)
      from (select distinct hashtext(p::text) as key from unnest(people) p order by 1) k;
    else
      perform pg_advisory_xact_lock(hashtext('seaworthy sea service'), k.key) from (select distinct hashtext(u.organization_id::text) as key from unnest(people) p join users u on u.id = p order by 1) k;
    end if;
    delete from sea_service_periods s where s.user_id = any(people);
    insert into sea_service_periods (experience_id, organization_id, user_id, ship_type, role_key, counted)
    select c.id, u.organization_id, c.user_id, c.ship_type,
      lower(btrim(c.position, E'\t\n\u000b\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff')),
      c.counted
    from users u
    cross join lateral sea_service_counted_periods(u.organization_id, u.id, null) c
    where u.id = any(people) and c.verified and not isempty(c.counted);

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
  end $function$;

CREATE OR REPLACE FUNCTION public.sea_service_experiences_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
  end $function$;

CREATE OR REPLACE TRIGGER experiences_sea_service_delete AFTER DELETE ON public.experiences REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION sea_service_experiences_changed();

CREATE OR REPLACE TRIGGER experiences_sea_service_insert AFTER INSERT ON public.experiences REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sea_service_experiences_changed();

CREATE OR REPLACE TRIGGER experiences_sea_service_update AFTER UPDATE ON public.experiences REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sea_service_experiences_changed();

CREATE OR REPLACE FUNCTION public.sea_service_review_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
  begin
    if tg_op = 'DELETE' then
      perform sea_service_refresh(array[old.user_id]);
    elsif tg_op = 'INSERT' then
      perform sea_service_refresh(array[new.user_id]);
    else
      perform sea_service_refresh(array[old.user_id, new.user_id]);
    end if;
    return null;
  end $function$;

CREATE OR REPLACE TRIGGER verifications_sea_service_delete AFTER DELETE ON public.verifications FOR EACH ROW WHEN (((old.target_type = 'experience'::text) AND (old.status = 'verified'::text))) EXECUTE FUNCTION sea_service_review_changed();

CREATE OR REPLACE TRIGGER verifications_sea_service_totals_update AFTER UPDATE ON public.verifications FOR EACH ROW WHEN ((((new.target_type = 'experience'::text) OR (old.target_type = 'experience'::text)) AND (((old.status = 'verified'::text) IS DISTINCT FROM (new.status = 'verified'::text)) OR ((old.user_id IS DISTINCT FROM new.user_id) OR (old.target_id IS DISTINCT FROM new.target_id) OR (old.target_type IS DISTINCT FROM new.target_type))))) EXECUTE FUNCTION sea_service_review_changed();

CREATE OR REPLACE TRIGGER verifications_sea_service_insert AFTER INSERT ON public.verifications FOR EACH ROW WHEN (((new.target_type = 'experience'::text) AND (new.status = 'verified'::text))) EXECUTE FUNCTION sea_service_review_changed();
