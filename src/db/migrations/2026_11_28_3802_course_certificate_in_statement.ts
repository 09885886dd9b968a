import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. The certificate a passed course issues is written by
// the statements that pass a registration (their CTEs, with the events every write makes), no longer by
// a trigger on registrations: the trigger and its function go. `down` restores them as they stood.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop trigger registrations_course_certificate on registrations`.execute(db)
  await sql`drop function course_certificate_issue()`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of RULES.split(/\n(?=CREATE OR REPLACE )/)) await sql.raw(statement).execute(db)
}

const RULES = `CREATE OR REPLACE FUNCTION public.course_certificate_issue()
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

CREATE OR REPLACE TRIGGER registrations_course_certificate AFTER UPDATE ON public.registrations FOR EACH ROW WHEN (((new.status = 'passed'::text) AND (old.status <> 'passed'::text))) EXECUTE FUNCTION course_certificate_issue();`
