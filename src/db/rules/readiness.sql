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

CREATE OR REPLACE FUNCTION public.readiness_assignment_holders_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
  begin
    if tg_op = 'INSERT' then
      insert into readiness_holders as h (organization_id, user_id, gen)
      select distinct n.organization_id, n.user_id, 1 from new_rows n
      on conflict (organization_id, user_id) do update set gen = h.gen + 1;
    elsif tg_op = 'DELETE' then
      insert into readiness_holders as h (organization_id, user_id, gen)
      select distinct o.organization_id, o.user_id, 1 from old_rows o
      on conflict (organization_id, user_id) do update set gen = h.gen + 1;
    else
      insert into readiness_holders as h (organization_id, user_id, gen)
      select distinct x.organization_id, x.user_id, 1
      from old_rows o join new_rows n on n.id = o.id
      cross join lateral (values (o.organization_id, o.user_id), (n.organization_id, n.user_id)) as x (organization_id, user_id)
      where o.user_id is distinct from n.user_id or o.start_date is distinct from n.start_date or o.end_date is distinct from n.end_date
      on conflict (organization_id, user_id) do update set gen = h.gen + 1;
    end if;
    return null;
  end $function$;

CREATE OR REPLACE TRIGGER assignments_readiness_holder_delete AFTER DELETE ON public.assignments REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION readiness_assignment_holders_changed();

CREATE OR REPLACE TRIGGER assignments_readiness_holder_insert AFTER INSERT ON public.assignments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION readiness_assignment_holders_changed();

CREATE OR REPLACE TRIGGER assignments_readiness_holder_update AFTER UPDATE ON public.assignments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION readiness_assignment_holders_changed();

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
