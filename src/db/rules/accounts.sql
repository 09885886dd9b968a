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
