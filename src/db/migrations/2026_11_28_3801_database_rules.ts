import { type Kysely, sql } from 'kysely'
import { up as personLocks } from './2026_11_27_3001_sea_service_person_locks.js'

// Frozen in time: imports no application code. Every function and trigger, (re)created from src/db/rules
// as they stood when this migration was written: a frozen copy, not an import, so that a rule changed in
// those files later needs a migration of its own (test/db-rules.test.ts compares the migrated database
// with the files and fails until it has one). New here: the sea-service counting rule as one SQL
// function (sea_service_counted_periods) that the stored totals and the TypeScript reads both call.

export async function up(db: Kysely<any>): Promise<void> {
  // One statement at a time: PGlite's driver runs a single statement per query.
  for (const statement of RULES.split(/\n(?=CREATE OR REPLACE )/)) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await personLocks(db)
  await sql`drop function sea_service_counted_periods(uuid, uuid, date)`.execute(db)
}

const RULES = String.raw`-- Rules every table shares: ids and timestamps.

CREATE OR REPLACE FUNCTION public.seaworthy_uuid_v7()
 RETURNS uuid
 LANGUAGE sql
AS $function$
    select encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
      placing substring(int8send((extract(epoch from clock_timestamp()) * 1000)::bigint) from 3) from 1 for 6), 52, 1), 53, 1), 'hex')::uuid
  $function$;

CREATE OR REPLACE FUNCTION public.seaworthy_created_is_updated()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      new.updated_at := new.created_at;
      return new;
    end $function$;

CREATE OR REPLACE TRIGGER assignments_created_is_updated BEFORE INSERT ON public.assignments FOR EACH ROW EXECUTE FUNCTION seaworthy_created_is_updated();

CREATE OR REPLACE TRIGGER certificates_created_is_updated BEFORE INSERT ON public.certificates FOR EACH ROW EXECUTE FUNCTION seaworthy_created_is_updated();

CREATE OR REPLACE TRIGGER courses_created_is_updated BEFORE INSERT ON public.courses FOR EACH ROW EXECUTE FUNCTION seaworthy_created_is_updated();

CREATE OR REPLACE TRIGGER curriculums_created_is_updated BEFORE INSERT ON public.curriculums FOR EACH ROW EXECUTE FUNCTION seaworthy_created_is_updated();

CREATE OR REPLACE TRIGGER experiences_created_is_updated BEFORE INSERT ON public.experiences FOR EACH ROW EXECUTE FUNCTION seaworthy_created_is_updated();

CREATE OR REPLACE TRIGGER identity_documents_created_is_updated BEFORE INSERT ON public.identity_documents FOR EACH ROW EXECUTE FUNCTION seaworthy_created_is_updated();

CREATE OR REPLACE TRIGGER next_of_kin_created_is_updated BEFORE INSERT ON public.next_of_kin FOR EACH ROW EXECUTE FUNCTION seaworthy_created_is_updated();

CREATE OR REPLACE TRIGGER registrations_created_is_updated BEFORE INSERT ON public.registrations FOR EACH ROW EXECUTE FUNCTION seaworthy_created_is_updated();

CREATE OR REPLACE TRIGGER ships_created_is_updated BEFORE INSERT ON public.ships FOR EACH ROW EXECUTE FUNCTION seaworthy_created_is_updated();

CREATE OR REPLACE TRIGGER sso_settings_created_is_updated BEFORE INSERT ON public.sso_settings FOR EACH ROW EXECUTE FUNCTION seaworthy_created_is_updated();

CREATE OR REPLACE TRIGGER uploads_created_is_updated BEFORE INSERT ON public.uploads FOR EACH ROW EXECUTE FUNCTION seaworthy_created_is_updated();

CREATE OR REPLACE TRIGGER users_created_is_updated BEFORE INSERT ON public.users FOR EACH ROW EXECUTE FUNCTION seaworthy_created_is_updated();

CREATE OR REPLACE TRIGGER verifications_created_is_updated BEFORE INSERT ON public.verifications FOR EACH ROW EXECUTE FUNCTION seaworthy_created_is_updated();

-- Accounts: the actor cache's announcements and suspension.

CREATE OR REPLACE FUNCTION public.seaworthy_notify_organization_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
   begin
     perform pg_notify('seaworthy_actors', 'organization:' || old.id::text);
     return null;
   end $function$;

CREATE OR REPLACE TRIGGER organizations_actor_changed AFTER DELETE OR UPDATE OF products ON public.organizations FOR EACH ROW EXECUTE FUNCTION seaworthy_notify_organization_changed();

CREATE OR REPLACE FUNCTION public.seaworthy_notify_user_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
   begin
     perform pg_notify('seaworthy_actors', old.id::text);
     return null;
   end $function$;

CREATE OR REPLACE TRIGGER users_actor_changed AFTER DELETE OR UPDATE OF state, role, organization_id, tokens_valid_after ON public.users FOR EACH ROW EXECUTE FUNCTION seaworthy_notify_user_changed();

CREATE OR REPLACE FUNCTION public.seaworthy_stamp_suspension()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
   begin
     new.tokens_valid_after := date_trunc('milliseconds', clock_timestamp());
     return new;
   end $function$;

CREATE OR REPLACE TRIGGER users_suspended BEFORE UPDATE OF state ON public.users FOR EACH ROW WHEN (((new.state = 'suspended'::text) AND (old.state IS DISTINCT FROM 'suspended'::text))) EXECUTE FUNCTION seaworthy_stamp_suspension();

CREATE OR REPLACE FUNCTION public.seaworthy_revoke_on_suspension()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
   begin
     update refresh_tokens set revoked_at = clock_timestamp()
      where user_id = new.id and spent_at is null and revoked_at is null;
     update account_links set revoked_at = clock_timestamp()
      where user_id = new.id and used_at is null and revoked_at is null;
     return null;
   end $function$;

CREATE OR REPLACE TRIGGER users_suspended_revoke AFTER UPDATE OF state ON public.users FOR EACH ROW WHEN (((new.state = 'suspended'::text) AND (old.state IS DISTINCT FROM 'suspended'::text))) EXECUTE FUNCTION seaworthy_revoke_on_suspension();

-- Events: append-only, and their fan-out to webhooks.

CREATE OR REPLACE FUNCTION public.seaworthy_events_append_only()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
   begin
     if coalesce(current_setting('seaworthy.audit_retention', true), '') = 'on' then
       return null;
     end if;
     raise exception 'events are append-only' using errcode = 'insufficient_privilege';
   end $function$;

CREATE OR REPLACE TRIGGER events_append_only BEFORE DELETE OR UPDATE OR TRUNCATE ON public.events FOR EACH STATEMENT EXECUTE FUNCTION seaworthy_events_append_only();

CREATE OR REPLACE FUNCTION public.webhook_fan_out()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
  declare
    created uuid[];
  begin
    if not exists (select 1 from webhooks w where w.organization_id in (select distinct organization_id from new_events) and w.active) then
      return null;
    end if;
    with inserted as (
      insert into webhook_deliveries (id, organization_id, webhook_id, event_id, event_type, next_attempt_at)
      select gen_random_uuid(), e.organization_id, w.id, e.id, e.type, clock_timestamp()
      from new_events e
      join webhooks w on w.organization_id = e.organization_id and w.active
      where e.type <> 'webhook.test'
        and exists (
          select 1 from unnest(w.events) p
          where p = '*' or p = e.type or (right(p, 2) = '.*' and starts_with(e.type, left(p, -1)))
        )
      returning id
    )
    select array_agg(id) into created from inserted;
    if created is not null then
      perform webhook_enqueue(created, clock_timestamp());
      perform pg_notify('webhook_deliveries', '');
    end if;
    return null;
  end
  $function$;

CREATE OR REPLACE TRIGGER webhook_fan_out AFTER INSERT ON public.events REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION webhook_fan_out();

CREATE OR REPLACE FUNCTION public.webhook_enqueue(ids uuid[], start_at timestamp with time zone)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
  begin
    insert into pgboss.job (name, data, start_after, retry_limit, retry_delay, expire_in, policy)
    select q.name, jsonb_build_object('deliveryId', d.id, 'attempt', d.attempt), start_at, coalesce(q.retry_limit, 2),
      coalesce(q.retry_delay, 0), coalesce(q.expire_seconds, 900) * interval '1 second', q.policy
    from webhook_deliveries d cross join pgboss.queue q
    where d.id = any(ids) and q.name = 'webhook-delivery';
  end
  $function$;

-- Crew records: one active assignment, uploads claimed by their record.

CREATE OR REPLACE FUNCTION public.seaworthy_one_active_assignment()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
   declare
     today constant date := (now() at time zone 'utc')::date;
     orgs uuid[];
     users uuid[];
     ships uuid[];
   begin
     if tg_op = 'INSERT' then
       select array_agg(organization_id), array_agg(user_id), array_agg(ship_id) into orgs, users, ships
       from (select distinct organization_id, user_id, ship_id from new_rows where end_date is null or end_date >= today) p;
     else
       select array_agg(organization_id), array_agg(user_id), array_agg(ship_id) into orgs, users, ships
       from (
         select distinct n.organization_id, n.user_id, n.ship_id
         from new_rows n join old_rows o on o.id = n.id
         where (n.end_date is null or n.end_date >= today)
           and not ((o.end_date is null or o.end_date >= today) and o.user_id = n.user_id and o.ship_id = n.ship_id)
       ) p;
     end if;
     if users is null then
       return null;
     end if;
     perform pg_advisory_xact_lock(k.key)
     from (select distinct hashtextextended(u::text || s::text, 0) as key from unnest(users, ships) as p(u, s) order by 1) k;
     if exists (
       select 1
       from unnest(orgs, users, ships) as p(o, u, s)
       join assignments a on a.organization_id = p.o and a.user_id = p.u and a.ship_id = p.s
       where a.end_date is null or a.end_date >= today
       group by p.o, p.u, p.s
       having count(*) > 1
     ) then
       raise exception 'A user may hold at most one active assignment per ship'
         using errcode = 'unique_violation', constraint = 'assignments_one_active_per_user_ship';
     end if;
     return null;
   end $function$;

CREATE OR REPLACE TRIGGER assignments_one_active_insert AFTER INSERT ON public.assignments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION seaworthy_one_active_assignment();

CREATE OR REPLACE TRIGGER assignments_one_active_update AFTER UPDATE ON public.assignments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT WHEN ((pg_trigger_depth() = 0)) EXECUTE FUNCTION seaworthy_one_active_assignment();

CREATE OR REPLACE FUNCTION public.seaworthy_claim_upload()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
   begin
     if tg_op in ('UPDATE', 'DELETE') and old.upload_id is not null then
       delete from upload_records where upload_id = old.upload_id and record_id = old.id;
     end if;
     if tg_op in ('INSERT', 'UPDATE') and new.upload_id is not null then
       insert into upload_records (upload_id, record_id) values (new.upload_id, new.id);
     end if;
     return null;
   end $function$;

CREATE OR REPLACE TRIGGER certificates_upload_changed AFTER UPDATE OF upload_id ON public.certificates FOR EACH ROW WHEN ((old.upload_id IS DISTINCT FROM new.upload_id)) EXECUTE FUNCTION seaworthy_claim_upload();

CREATE OR REPLACE TRIGGER certificates_upload_created AFTER INSERT ON public.certificates FOR EACH ROW WHEN ((new.upload_id IS NOT NULL)) EXECUTE FUNCTION seaworthy_claim_upload();

CREATE OR REPLACE TRIGGER certificates_upload_deleted AFTER DELETE ON public.certificates FOR EACH ROW WHEN ((old.upload_id IS NOT NULL)) EXECUTE FUNCTION seaworthy_claim_upload();

CREATE OR REPLACE TRIGGER identity_documents_upload_changed AFTER UPDATE OF upload_id ON public.identity_documents FOR EACH ROW WHEN ((old.upload_id IS DISTINCT FROM new.upload_id)) EXECUTE FUNCTION seaworthy_claim_upload();

CREATE OR REPLACE TRIGGER identity_documents_upload_created AFTER INSERT ON public.identity_documents FOR EACH ROW WHEN ((new.upload_id IS NOT NULL)) EXECUTE FUNCTION seaworthy_claim_upload();

CREATE OR REPLACE TRIGGER identity_documents_upload_deleted AFTER DELETE ON public.identity_documents FOR EACH ROW WHEN ((old.upload_id IS NOT NULL)) EXECUTE FUNCTION seaworthy_claim_upload();

-- Readiness: which changes mark a person's verdict stale.

CREATE OR REPLACE FUNCTION public.readiness_assignment_deleted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
  begin
    delete from readiness_verdicts v where v.assignment_id = old.id;
    return null;
  end $function$;

CREATE OR REPLACE TRIGGER assignments_readiness_delete AFTER DELETE ON public.assignments FOR EACH ROW EXECUTE FUNCTION readiness_assignment_deleted();

CREATE OR REPLACE FUNCTION public.readiness_holder_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
  end $function$;

CREATE OR REPLACE TRIGGER certificates_readiness_insert_delete AFTER INSERT OR DELETE ON public.certificates FOR EACH ROW EXECUTE FUNCTION readiness_holder_changed();

CREATE OR REPLACE TRIGGER certificates_readiness_update AFTER UPDATE ON public.certificates FOR EACH ROW WHEN (((old.user_id IS DISTINCT FROM new.user_id) OR (old.certificate_type IS DISTINCT FROM new.certificate_type) OR (old.expiry_date IS DISTINCT FROM new.expiry_date) OR (old.created_at IS DISTINCT FROM new.created_at))) EXECUTE FUNCTION readiness_holder_changed();

CREATE OR REPLACE TRIGGER experiences_readiness_insert_delete AFTER INSERT OR DELETE ON public.experiences FOR EACH ROW EXECUTE FUNCTION readiness_holder_changed();

CREATE OR REPLACE TRIGGER experiences_readiness_update AFTER UPDATE ON public.experiences FOR EACH ROW WHEN (((old.user_id IS DISTINCT FROM new.user_id) OR (old."position" IS DISTINCT FROM new."position") OR (old.start_date IS DISTINCT FROM new.start_date) OR (old.end_date IS DISTINCT FROM new.end_date) OR (old.created_at IS DISTINCT FROM new.created_at))) EXECUTE FUNCTION readiness_holder_changed();

CREATE OR REPLACE TRIGGER identity_documents_readiness_insert_delete AFTER INSERT OR DELETE ON public.identity_documents FOR EACH ROW EXECUTE FUNCTION readiness_holder_changed();

CREATE OR REPLACE TRIGGER identity_documents_readiness_update AFTER UPDATE ON public.identity_documents FOR EACH ROW WHEN (((old.user_id IS DISTINCT FROM new.user_id) OR (old.document_type IS DISTINCT FROM new.document_type) OR (old.expiry_date IS DISTINCT FROM new.expiry_date) OR (old.created_at IS DISTINCT FROM new.created_at))) EXECUTE FUNCTION readiness_holder_changed();

CREATE OR REPLACE TRIGGER verifications_readiness_delete AFTER DELETE ON public.verifications FOR EACH ROW WHEN ((old.target_type = ANY (ARRAY['identity_document'::text, 'certificate'::text]))) EXECUTE FUNCTION readiness_holder_changed();

CREATE OR REPLACE TRIGGER verifications_readiness_update AFTER UPDATE ON public.verifications FOR EACH ROW WHEN (((new.target_type = ANY (ARRAY['identity_document'::text, 'certificate'::text])) AND ((old.status IS DISTINCT FROM new.status) OR (old.user_id IS DISTINCT FROM new.user_id)))) EXECUTE FUNCTION readiness_holder_changed();

CREATE OR REPLACE TRIGGER verifications_sea_service_update AFTER UPDATE ON public.verifications FOR EACH ROW WHEN (((new.target_type = 'experience'::text) AND (((old.status = 'verified'::text) IS DISTINCT FROM (new.status = 'verified'::text)) OR (old.user_id <> new.user_id)))) EXECUTE FUNCTION readiness_holder_changed();

CREATE OR REPLACE FUNCTION public.readiness_registration_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
  begin
    if tg_op <> 'INSERT' then
      update assignments a set readiness_gen = a.readiness_gen + 1 where a.id = old.assignment_id;
    end if;
    if tg_op <> 'DELETE' and (tg_op = 'INSERT' or new.assignment_id <> old.assignment_id) then
      update assignments a set readiness_gen = a.readiness_gen + 1 where a.id = new.assignment_id;
    end if;
    return null;
  end $function$;

CREATE OR REPLACE TRIGGER registrations_readiness_delete AFTER DELETE ON public.registrations FOR EACH ROW EXECUTE FUNCTION readiness_registration_changed();

CREATE OR REPLACE TRIGGER registrations_readiness_update AFTER UPDATE ON public.registrations FOR EACH ROW WHEN ((((old.status = 'passed'::text) IS DISTINCT FROM (new.status = 'passed'::text)) OR (old.assignment_id <> new.assignment_id))) EXECUTE FUNCTION readiness_registration_changed();

CREATE OR REPLACE FUNCTION public.readiness_registrations_inserted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
  begin
    update assignments a set readiness_gen = a.readiness_gen + 1 where a.id in (select assignment_id from new_rows);
    return null;
  end $function$;

CREATE OR REPLACE TRIGGER registrations_readiness_insert AFTER INSERT ON public.registrations REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION readiness_registrations_inserted();

CREATE OR REPLACE FUNCTION public.readiness_requirements_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
  begin
    update organizations o set readiness_gen = o.readiness_gen + 1 where o.id in (select organization_id from changed_rows);
    return null;
  end $function$;

CREATE OR REPLACE TRIGGER requirements_readiness_delete AFTER DELETE ON public.requirements REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION readiness_requirements_changed();

CREATE OR REPLACE TRIGGER requirements_readiness_insert AFTER INSERT ON public.requirements REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION readiness_requirements_changed();

CREATE OR REPLACE TRIGGER requirements_readiness_update AFTER UPDATE ON public.requirements REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION readiness_requirements_changed();

CREATE OR REPLACE FUNCTION public.readiness_settings_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
  begin
    new.readiness_gen := old.readiness_gen + 1;
    return new;
  end $function$;

CREATE OR REPLACE TRIGGER organizations_readiness_settings BEFORE UPDATE ON public.organizations FOR EACH ROW WHEN ((old.settings IS DISTINCT FROM new.settings)) EXECUTE FUNCTION readiness_settings_changed();

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
    else
      perform sea_service_refresh(array[old.user_id, new.user_id]);
    end if;
    return null;
  end $function$;

CREATE OR REPLACE TRIGGER verifications_sea_service_delete AFTER DELETE ON public.verifications FOR EACH ROW WHEN (((old.target_type = 'experience'::text) AND (old.status = 'verified'::text))) EXECUTE FUNCTION sea_service_review_changed();

CREATE OR REPLACE TRIGGER verifications_sea_service_totals_update AFTER UPDATE ON public.verifications FOR EACH ROW WHEN ((((new.target_type = 'experience'::text) OR (old.target_type = 'experience'::text)) AND (((old.status = 'verified'::text) IS DISTINCT FROM (new.status = 'verified'::text)) OR ((old.user_id IS DISTINCT FROM new.user_id) OR (old.target_id IS DISTINCT FROM new.target_id) OR (old.target_type IS DISTINCT FROM new.target_type))))) EXECUTE FUNCTION sea_service_review_changed();

CREATE OR REPLACE FUNCTION public.sea_service_reviews_inserted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
  declare
    people uuid[];
  begin
    select array_agg(distinct n.user_id) into people from new_rows n where n.target_type = 'experience' and n.status = 'verified';
    if people is not null then
      perform sea_service_refresh(people);
    end if;
    return null;
  end $function$;

CREATE OR REPLACE TRIGGER verifications_sea_service_insert AFTER INSERT ON public.verifications REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sea_service_reviews_inserted();

-- Learning: a passed course issues its certificate; xAPI statements are append-only.

CREATE OR REPLACE FUNCTION public.course_certificate_issue()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
  declare
    t record;
    issued date := (new.completed_at at time zone 'utc')::date;
    cert certificates;
    prior certificates;
    review verifications;
    prior_status text;
    wire jsonb;
    stamp timestamptz := date_trunc('milliseconds', clock_timestamp());
  begin
    select c.certificate_type, c.certificate_validity_months, a.user_id, o.name, o.settings into t
      from courses c join assignments a on a.id = new.assignment_id join organizations o on o.id = new.organization_id
      where c.id = new.course_id;
    if t.certificate_type is null then return null; end if;
    select * into prior from certificates x
      where x.organization_id = new.organization_id and x.user_id = t.user_id and x.certificate_type = t.certificate_type and x.source = 'course'
      for update;
    insert into certificates as x (id, organization_id, user_id, certificate_type, certificate_number, issuing_authority, issue_date,
        expiry_date, uploaded_by_user_id, source, registration_id, created_at, updated_at)
      values (seaworthy_uuid_v7(), new.organization_id, t.user_id, t.certificate_type, new.id::text, t.name, issued,
        (issued + make_interval(months => t.certificate_validity_months))::date, t.user_id, 'course', new.id, stamp, stamp)
      on conflict (organization_id, user_id, certificate_type) where source = 'course' do update set
        certificate_number = excluded.certificate_number, issuing_authority = excluded.issuing_authority,
        issue_date = excluded.issue_date, expiry_date = excluded.expiry_date, registration_id = excluded.registration_id,
        updated_at = excluded.updated_at
      returning * into cert;
    select v.status into prior_status from verifications v where v.target_type = 'certificate' and v.target_id = cert.id;
    insert into verifications as v (target_type, target_id, organization_id, user_id, status, reviewed_at, created_at, updated_at)
      values ('certificate', cert.id, cert.organization_id, cert.user_id, 'verified', stamp, stamp, stamp)
      on conflict (target_type, target_id) do update set status = 'verified', reviewed_at = stamp, reviewer_user_id = null,
        rejection_reason = null, updated_at = stamp
      returning * into review;
    insert into verification_events (organization_id, target_type, target_id, from_status, to_status, action, actor_user_id)
      values (cert.organization_id, 'certificate', cert.id, prior_status, 'verified', case when prior.id is null then 'create' else 'course_passed' end, null);
    -- The wire shape of GET /certificates/{id}; the expiry status uses the organization's window, else 90 days.
    wire := jsonb_build_object('id', cert.id, 'certificateType', cert.certificate_type, 'certificateNumber', cert.certificate_number,
      'issuingAuthority', cert.issuing_authority, 'issueDate', cert.issue_date, 'expiryDate', cert.expiry_date, 'uploadId', cert.upload_id,
      'uploadedByUserId', cert.uploaded_by_user_id,
      'status', case when cert.expiry_date < (now() at time zone 'utc')::date then 'expired'
        when cert.expiry_date <= (now() at time zone 'utc')::date + coalesce((t.settings->'expiryWindowDays'->>cert.certificate_type)::int,
          (t.settings->>'defaultExpiryWindowDays')::int, 90) then 'expiring_soon' else 'valid' end,
      'verification', jsonb_build_object('targetType', review.target_type, 'targetId', review.target_id, 'status', review.status,
        'rejectionReason', review.rejection_reason, 'reviewedAt', to_char(review.reviewed_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
      'notes', cert.notes, 'source', cert.source, 'registrationId', cert.registration_id,
      'createdAt', to_char(cert.created_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'updatedAt', to_char(cert.updated_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));
    insert into events (id, organization_id, type, target_type, target_id, data)
      values (seaworthy_uuid_v7(), cert.organization_id, case when prior.id is null then 'certificate.created' else 'certificate.updated' end,
        'certificate', cert.id,
        case when prior.id is null then wire else jsonb_build_object('changes', jsonb_strip_nulls(jsonb_build_object(
          'certificateNumber', case when prior.certificate_number is distinct from cert.certificate_number then jsonb_build_array(prior.certificate_number, cert.certificate_number) end,
          'issuingAuthority', case when prior.issuing_authority is distinct from cert.issuing_authority then jsonb_build_array(prior.issuing_authority, cert.issuing_authority) end,
          'issueDate', case when prior.issue_date is distinct from cert.issue_date then jsonb_build_array(prior.issue_date, cert.issue_date) end,
          'expiryDate', case when prior.expiry_date is distinct from cert.expiry_date then jsonb_build_array(prior.expiry_date, cert.expiry_date) end,
          'registrationId', case when prior.registration_id is distinct from cert.registration_id then jsonb_build_array(prior.registration_id, cert.registration_id) end))) end);
    return null;
  end $function$;

CREATE OR REPLACE TRIGGER registrations_course_certificate AFTER UPDATE ON public.registrations FOR EACH ROW WHEN (((new.status = 'passed'::text) AND (old.status <> 'passed'::text))) EXECUTE FUNCTION course_certificate_issue();

CREATE OR REPLACE FUNCTION public.seaworthy_xapi_statements_append_only()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
   begin
     if tg_op = 'UPDATE' and new.voided and not old.voided
        and (new.organization_id, new.id, new.stored, new.statement) = (old.organization_id, old.id, old.stored, old.statement) then
       return new;
     end if;
     raise exception 'xAPI statements are append-only' using errcode = 'insufficient_privilege';
   end $function$;

CREATE OR REPLACE TRIGGER xapi_statements_append_only BEFORE DELETE OR UPDATE ON public.xapi_statements FOR EACH ROW EXECUTE FUNCTION seaworthy_xapi_statements_append_only();

CREATE OR REPLACE FUNCTION public.seaworthy_xapi_statements_no_truncate()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
   begin
     raise exception 'xAPI statements are append-only' using errcode = 'insufficient_privilege';
   end $function$;

CREATE OR REPLACE TRIGGER xapi_statements_no_truncate BEFORE TRUNCATE ON public.xapi_statements FOR EACH STATEMENT EXECUTE FUNCTION seaworthy_xapi_statements_no_truncate();
`
