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
