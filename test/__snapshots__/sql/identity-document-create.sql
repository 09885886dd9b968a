-- insertExpiringAlone (identity documents): with an upload a crew member references
with
  "owner" as (
    select
      "id"
    from
      "users"
    where
      "organization_id" = $1
      and "id" = $2
  ),
  "doc" as (
    insert into
      "identity_documents" (
        "document_number",
        "document_type",
        "upload_id",
        "uploaded_by_user_id",
        "id",
        "organization_id",
        "user_id"
      )
    select
      $3 as "document_number",
      $4 as "document_type",
      $5 as "upload_id",
      $6 as "uploaded_by_user_id",
      $7 as "id",
      $8 as "organization_id",
      $9 as "user_id"
    from
      "owner"
    where
      exists (
        select
          "uploads"."id",
          "uploads"."user_id"
        from
          "uploads"
        where
          "uploads"."organization_id" = $10
          and "uploads"."id" = $11
          and "uploads"."status" in ($12, $13)
          and "uploads"."user_id" = $14
      )
    returning
      *
  ),
  "ver" as (
    insert into
      "verifications" (
        "target_type",
        "target_id",
        "organization_id",
        "user_id",
        "rejection_reason",
        "reviewed_at",
        "reviewer_user_id",
        "status",
        "submitted_at"
      )
    select
      $15 as "target_type",
      "doc"."id" as "target_id",
      "doc"."organization_id",
      "doc"."user_id",
      $16 as "rejection_reason",
      $17 as "reviewed_at",
      $18 as "reviewer_user_id",
      $19 as "status",
      $20 as "submitted_at"
    from
      "doc"
    returning
      "target_type",
      "target_id",
      "status",
      "rejection_reason",
      "reviewed_at"
  ),
  "event" as (
    insert into
      "verification_events" (
        "organization_id",
        "target_type",
        "target_id",
        "from_status",
        "to_status",
        "action",
        "actor_user_id",
        "reason"
      )
    select
      $21 as "organization_id",
      "ver"."target_type",
      "ver"."target_id",
      $22 as "from_status",
      "ver"."status" as "to_status",
      $23 as "action",
      $24 as "actor_user_id",
      $25 as "reason"
    from
      "ver"
  ),
  "audit" as (
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
      ($26::uuid[]) [row_number() over ()],
      $27::uuid,
      $28::text,
      $29::uuid,
      $30::text,
      $31::text,
      e.target_id,
      e.data,
      $32::text
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
                      o.id = $33
                  ) -> 'expiryWindowDays' ->> "doc"."document_type"
                )::int,
                (
                  (
                    select
                      o.settings
                    from
                      organizations o
                    where
                      o.id = $34
                  ) ->> 'defaultExpiryWindowDays'
                )::int,
                $35::int
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
          ) as data
        from
          doc
          join ver on ver.target_id = doc.id
      ) e
    returning
      data::text as "wire"
  )
select
  "doc"."id",
  "audit"."wire"
from
  "owner"
  left join "doc" on true
  left join "ver" on true
  left join "audit" on true
