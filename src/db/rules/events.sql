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
