-- listExpiring: a user's certificates with expiry_status=expiring_soon
select
  "r".*,
  "v"."target_type",
  "v"."target_id",
  "v"."status",
  "v"."rejection_reason",
  "v"."reviewed_at",
  case
    when r.expiry_date is null then 'valid'
    when r.expiry_date < (now() at time zone 'utc')::date then 'expired'
    when r.expiry_date <= (now() at time zone 'utc')::date + $1::int then 'expiring_soon'
    else 'valid'
  end as "expiry_status"
from
  "certificates" as "r"
  left join "verifications" as "v" on "v"."target_id" = "r"."id"
  and "v"."target_type" = $2
where
  "r"."organization_id" = $3
  and "r"."user_id" = $4
  and case
    when r.expiry_date is null then 'valid'
    when r.expiry_date < (now() at time zone 'utc')::date then 'expired'
    when r.expiry_date <= (now() at time zone 'utc')::date + $5::int then 'expiring_soon'
    else 'valid'
  end = $6
order by
  "r"."created_at" desc,
  "r"."id" desc
