-- Rules every table shares: ids and timestamps.

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
