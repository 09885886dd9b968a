-- expiringOfUser: a user's certificates with expiry_status=expiring_soon
select
  "verifications"."target_type",
  "verifications"."target_id",
  "verifications"."status",
  "verifications"."rejection_reason",
  "verifications"."reviewed_at",
  case
    when "certificates"."expiry_date" is null then 'valid'
    when "certificates"."expiry_date" < (now() at time zone 'utc')::date then 'expired'
    when "certificates"."expiry_date" <= (now() at time zone 'utc')::date + $1::int then 'expiring_soon'
    else 'valid'
  end as "expiry_status"
from
  "certificates"
  left join "verifications" on "verifications"."target_id" = "certificates"."id"
  and "verifications"."target_type" = $2
where
  "certificates"."organization_id" = $3
  and "certificates"."user_id" = $4
  and case
    when "certificates"."expiry_date" is null then 'valid'
    when "certificates"."expiry_date" < (now() at time zone 'utc')::date then 'expired'
    when "certificates"."expiry_date" <= (now() at time zone 'utc')::date + $5::int then 'expiring_soon'
    else 'valid'
  end = $6
order by
  "certificates"."created_at" desc,
  "certificates"."id" desc
