import { type QueryCreator, type RawBuilder, sql } from 'kysely'
import { changesSql, type EventIds, typedEventsInsert, wireJson } from '../../../lib/events.js'
import { CERTIFICATES } from '../../crew/record-kinds/certificates.js'
import { expiringWire } from '../../crew/reviewed-records/reviewed-records.queries.js'

// The certificate a passed course issues (DECISIONS §14), written by the statement that passes the registration.

const stamp = sql<Date>`date_trunc('milliseconds', now())`

/** The fields a re-issue may change: the `data.changes` of its certificate.updated. */
const reissued = (alias: string) =>
  wireJson(
    Object.fromEntries(
      Object.entries({
        certificateNumber: 'certificate_number',
        issuingAuthority: 'issuing_authority',
        issueDate: 'issue_date',
        expiryDate: 'expiry_date',
        registrationId: 'registration_id',
      }).map(([field, column]) => [field, sql.ref(`${alias}.${column}`)]),
    ),
  )

type Cte = (qc: QueryCreator<any>) => unknown

/**
 * Adds to the statement `builder` the CTEs that issue the certificate of each registration of
 * `passed` (SQL over the statement's CTEs giving registrations that have just passed) whose course
 * has a certificate template: the certificate, created or re-issued over the course's previous one,
 * verified, its verification's history entry, and its certificate.created or .updated event as the
 * system's (its status within the organization's window, else `days`). `eventIds`: one per row.
 */
export function withCourseCertificate<B>(builder: B, passed: RawBuilder<unknown>, orgId: string, days: number, eventIds: EventIds): B {
  const ctes: [string, Cte][] = [
    [
      'cc_issue',
      () => sql`(select r.id as registration_id, r.organization_id, a.user_id, c.certificate_type, o.name as issuing_authority,
          (r.completed_at at time zone 'utc')::date as issue_date, c.certificate_validity_months as months
        from (${passed}) r join courses c on c.id = r.course_id join assignments a on a.id = r.assignment_id
          join organizations o on o.id = r.organization_id
        where c.certificate_type is not null)`,
    ],
    [
      'cc_prior',
      () => sql`(select x.* from certificates x join cc_issue i on (x.organization_id, x.user_id, x.certificate_type) =
          (i.organization_id, i.user_id, i.certificate_type) where x.source = 'course' for update of x)`,
    ],
    [
      'cc_cert',
      () => sql`(insert into certificates as x (id, organization_id, user_id, certificate_type, certificate_number, issuing_authority,
          issue_date, expiry_date, uploaded_by_user_id, source, registration_id, created_at, updated_at)
        select seaworthy_uuid_v7(), i.organization_id, i.user_id, i.certificate_type, i.registration_id::text, i.issuing_authority,
          i.issue_date, (i.issue_date + make_interval(months => i.months))::date, i.user_id, 'course', i.registration_id, ${stamp}, ${stamp}
        -- Joined so the prior certificate is locked before the upsert; on its key, so each issue row stays one row.
        from cc_issue i left join cc_prior p on (p.organization_id, p.user_id, p.certificate_type) =
          (i.organization_id, i.user_id, i.certificate_type)
        on conflict (organization_id, user_id, certificate_type) where source = 'course' do update set
          certificate_number = excluded.certificate_number, issuing_authority = excluded.issuing_authority,
          issue_date = excluded.issue_date, expiry_date = excluded.expiry_date, registration_id = excluded.registration_id,
          updated_at = excluded.updated_at
        returning x.*)`,
    ],
    [
      'cc_prior_review',
      () =>
        sql`(select v.target_id, v.status from verifications v join cc_prior p on v.target_type = 'certificate' and v.target_id = p.id)`,
    ],
    [
      'cc_review',
      () => sql`(insert into verifications as v (target_type, target_id, organization_id, user_id, status, reviewed_at, created_at, updated_at)
        select 'certificate', c.id, c.organization_id, c.user_id, 'verified', ${stamp}, ${stamp}, ${stamp} from cc_cert c
        on conflict (target_type, target_id) do update set status = 'verified', reviewed_at = excluded.reviewed_at,
          reviewer_user_id = null, rejection_reason = null, updated_at = excluded.updated_at
        returning v.*)`,
    ],
    [
      'cc_history',
      () => sql`(insert into verification_events (organization_id, target_type, target_id, from_status, to_status, action, actor_user_id)
        select c.organization_id, 'certificate', c.id, pv.status, 'verified', case when p.id is null then 'create' else 'course_passed' end, null
        from cc_cert c left join cc_prior p on p.id = c.id left join cc_prior_review pv on pv.target_id = c.id)`,
    ],
    [
      'cc_event',
      (qc) =>
        typedEventsInsert(
          qc,
          { orgId, actor: null, requestId: null },
          'certificate',
          sql`select case when p.id is null then 'certificate.created' else 'certificate.updated' end as type, c.id as target_id,
              case when p.id is null then ${expiringWire(CERTIFICATES, orgId, days)('c', 'r')}
                else jsonb_build_object('changes', ${changesSql(sql.ref('w.before'), sql.ref('w.after'))}) end as data
            from cc_cert c join cc_review r on r.target_id = c.id left join cc_prior p on p.id = c.id
              cross join lateral (select ${reissued('p')} as before, ${reissued('c')} as after) w`,
          eventIds,
        ),
    ],
  ]
  return ctes.reduce((chain, [name, cte]) => (chain as any).with(name, cte), builder as unknown) as B
}
