-- Learning: xAPI statements are append-only.

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
