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
    when "identity_documents"."expiry_date" <= (now() at time zone 'utc')::date + $1::int then 'expiring_soon'
    else 'valid'
  end as "expiry_status"
from
  "identity_documents"
  left join "verifications" on "verifications"."target_id" = "identity_documents"."id"
  and "verifications"."target_type" = $2
where
  "identity_documents"."organization_id" = $3
  and "identity_documents"."user_id" = $4
  and case
    when "identity_documents"."expiry_date" is null then 'valid'
    when "identity_documents"."expiry_date" < (now() at time zone 'utc')::date then 'expired'
    when "identity_documents"."expiry_date" <= (now() at time zone 'utc')::date + $5::int then 'expiring_soon'
    else 'valid'
  end = $6
order by
  "identity_documents"."created_at" desc,
  "identity_documents"."id" desc
