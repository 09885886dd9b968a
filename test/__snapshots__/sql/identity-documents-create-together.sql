-- insertTogether (identity documents): creates with uploads their crew members reference
with
  input as (
    select
      d.id,
      d.user_id,
      "d"."document_type",
      "d"."document_number",
      "d"."uploaded_by_user_id",
      "d"."upload_id",
      v."status" as "ver_status",
      v."submitted_at" as "ver_submitted_at",
      v."reviewed_at" as "ver_reviewed_at",
      v."reviewer_user_id" as "ver_reviewer_user_id",
      v."rejection_reason" as "ver_rejection_reason",
      s.*
    from
      jsonb_array_elements($1::jsonb) r
      cross join lateral jsonb_populate_record(null::"identity_documents", r -> 'doc') d
      cross join lateral jsonb_populate_record(null::verifications, r -> 'ver') v
      cross join lateral jsonb_to_record(r -> 'src') as s (
        upload_owner uuid,
        action text,
        actor_user_id uuid,
        reason text,
        source_user_id uuid,
        source_role text,
        request_id text
      )
  ),
  -- Each owner read by its key: a join, planned once for any organization, may read all of one's users.
  owner as (
    select
      i.*
    from
      input i
    where
      (
        select
          u.organization_id
        from
          users u
        where
          u.id = i.user_id
      ) = $2::uuid
  ),
  doc as (
    insert into
      "identity_documents" (
        "document_type",
        "document_number",
        "uploaded_by_user_id",
        "upload_id",
        "id",
        "organization_id",
        "user_id"
      )
    select
      "owner"."document_type",
      "owner"."document_number",
      "owner"."uploaded_by_user_id",
      "owner"."upload_id",
      owner.id,
      $3::uuid,
      owner.user_id
    from
      owner
    where
      exists (
        (
          select
            "uploads"."id",
            "uploads"."user_id"
          from
            "uploads"
          where
            "uploads"."organization_id" = $4
            and "uploads"."id" = "owner"."upload_id"
            and "uploads"."status" in ($5, $6)
            and "uploads"."user_id" = "owner"."upload_owner"
        )
      )
    returning
      *
  ),
  ver as (
    insert into
      verifications (
        target_type,
        target_id,
        organization_id,
        user_id,
        "status",
        "submitted_at",
        "reviewed_at",
        "reviewer_user_id",
        "rejection_reason"
      )
    select
      $7,
      doc.id,
      doc.organization_id,
      doc.user_id,
      "owner"."ver_status",
      "owner"."ver_submitted_at",
      "owner"."ver_reviewed_at",
      "owner"."ver_reviewer_user_id",
      "owner"."ver_rejection_reason"
    from
      doc
      join owner on owner.id = doc.id
    returning
      target_type,
      target_id,
      status,
      rejection_reason,
      reviewed_at
  ),
  event as (
    insert into
      verification_events (
        organization_id,
        target_type,
        target_id,
        from_status,
        to_status,
        action,
        actor_user_id,
        reason
      )
    select
      $8::uuid,
      ver.target_type,
      ver.target_id,
      null,
      ver.status,
      owner.action,
      owner.actor_user_id,
      owner.reason
    from
      ver
      join owner on owner.id = ver.target_id
  ),
  audit as (
    insert into
      "events" (
        "id",
        "organization_id",
        "type",
        "actor_user_id",
        "actor_role",
        "target_type",
        "target_id",
        "data",
        "request_id"
      )
    select
      ($9::uuid[]) [row_number() over ()],
      $10::uuid,
      $11::text,
      e.source_user_id::uuid,
      e.source_role::text,
      $12::text,
      e.target_id,
      e.data,
      e.request_id::text
    from
      (
        select
          doc.id as target_id,
          jsonb_build_object(
            'id'::text,
            "doc"."id",
            'documentType'::text,
            "doc"."document_type",
            'documentNumber'::text,
            "doc"."document_number",
            'issuingCountry'::text,
            "doc"."issuing_country",
            'issueDate'::text,
            "doc"."issue_date",
            'expiryDate'::text,
            "doc"."expiry_date",
            'uploadId'::text,
            "doc"."upload_id",
            'notes'::text,
            "doc"."notes",
            'uploadedByUserId'::text,
            "doc"."uploaded_by_user_id",
            'status'::text,
            case
              when "doc"."expiry_date" is null then 'valid'
              when "doc"."expiry_date" < (now() at time zone 'utc')::date then 'expired'
              when "doc"."expiry_date" <= (now() at time zone 'utc')::date + coalesce(
                (
                  (
                    select
                      o.settings
                    from
                      organizations o
                    where
                      o.id = $13
                  ) -> 'expiryWindowDays' ->> "doc"."document_type"
                )::int,
                (
                  (
                    select
                      o.settings
                    from
                      organizations o
                    where
                      o.id = $14
                  ) ->> 'defaultExpiryWindowDays'
                )::int,
                $15::int
              ) then 'expiring_soon'
              else 'valid'
            end,
            'verification'::text,
            case
              when "ver"."status" is null then null
              else jsonb_build_object(
                'targetType',
                "ver"."target_type",
                'targetId',
                "ver"."target_id",
                'status',
                "ver"."status",
                'rejectionReason',
                "ver"."rejection_reason",
                'reviewedAt',
                to_char(
                  "ver"."reviewed_at" at time zone 'utc',
                  'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
                )
              )
            end,
            'createdAt'::text,
            to_char(
              "doc"."created_at" at time zone 'utc',
              'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
            ),
            'updatedAt'::text,
            to_char(
              "doc"."updated_at" at time zone 'utc',
              'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
            )
          ) as data,
          owner.source_user_id,
          owner.source_role,
          owner.request_id
        from
          doc
          join ver on ver.target_id = doc.id
          join owner on owner.id = doc.id
      ) e
    returning
      target_id as "target_id",
      data::text as "wire"
  )
select
  i.id,
  owner.id is not null as has_owner,
  audit.wire
from
  input i
  left join owner on owner.id = i.id
  left join audit on audit.target_id = i.id
