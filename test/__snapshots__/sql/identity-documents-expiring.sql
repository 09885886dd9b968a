-- expiringOfUser: a user's identity-documents with expiry_status=expiring_soon
select
  "verifications"."target_type",
  "verifications"."target_id",
  "verifications"."status",
  "verifications"."rejection_reason",
  "verifications"."reviewed_at",
  case
    when "identity_documents"."expiry_date" is null then 'valid'
    when "identity_documents"."expiry_date" < (now() at time zone 'utc')::date then 'expired'
    when "identity_documents"."expiry_date" <= (now() at time zone 'utc')::date + coalesce(
      (
        (
          select
            o.settings
          from
            organizations o
          where
            o.id = $1
        ) -> 'expiryWindowDays' ->> "identity_documents"."document_type"
      )::int,
      (
        (
          select
            o.settings
          from
            organizations o
          where
            o.id = $2
        ) ->> 'defaultExpiryWindowDays'
      )::int,
      $3::int
    ) then 'expiring_soon'
    else 'valid'
  end as "expiry_status"
from
  "identity_documents"
  left join "verifications" on "verifications"."target_id" = "identity_documents"."id"
  and "verifications"."target_type" = $4
where
  "identity_documents"."organization_id" = $5
  and "identity_documents"."user_id" = $6
  and case
    when "identity_documents"."expiry_date" is null then 'valid'
    when "identity_documents"."expiry_date" < (now() at time zone 'utc')::date then 'expired'
    when "identity_documents"."expiry_date" <= (now() at time zone 'utc')::date + coalesce(
      (
        (
          select
            o.settings
          from
            organizations o
          where
            o.id = $7
        ) -> 'expiryWindowDays' ->> "identity_documents"."document_type"
      )::int,
      (
        (
          select
            o.settings
          from
            organizations o
          where
            o.id = $8
        ) ->> 'defaultExpiryWindowDays'
      )::int,
      $9::int
    ) then 'expiring_soon'
    else 'valid'
  end = $10
order by
  "identity_documents"."created_at" desc,
  "identity_documents"."id" desc
