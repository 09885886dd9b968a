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
    when "certificates"."expiry_date" <= (now() at time zone 'utc')::date + coalesce(
      (
        (
          select
            o.settings
          from
            organizations o
          where
            o.id = $1
        ) -> 'expiryWindowDays' ->> "certificates"."certificate_type"
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
  "certificates"
  left join "verifications" on "verifications"."target_id" = "certificates"."id"
  and "verifications"."target_type" = $4
where
  "certificates"."organization_id" = $5
  and "certificates"."user_id" = $6
  and case
    when "certificates"."expiry_date" is null then 'valid'
    when "certificates"."expiry_date" < (now() at time zone 'utc')::date then 'expired'
    when "certificates"."expiry_date" <= (now() at time zone 'utc')::date + coalesce(
      (
        (
          select
            o.settings
          from
            organizations o
          where
            o.id = $7
        ) -> 'expiryWindowDays' ->> "certificates"."certificate_type"
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
  "certificates"."created_at" desc,
  "certificates"."id" desc
