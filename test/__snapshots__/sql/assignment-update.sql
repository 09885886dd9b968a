-- updateAssignment: role only
with
  "a" as (
    update "assignments"
    set
      "role" = $1,
      "updated_at" = $2
    where
      "organization_id" = $3
      and "id" = $4
    returning
      *
  )
select
  "a"."id",
  "a"."user_id",
  u.first_name || ' ' || u.last_name as "user_name",
  "u"."email" as "user_email",
  "a"."ship_id",
  "s"."name" as "ship_name",
  "s"."imo_number" as "ship_imo_number",
  "a"."role",
  "a"."start_date",
  "a"."due_date",
  "a"."end_date",
  (
    "a"."end_date" is null
    or "a"."end_date" >= (now() at time zone 'utc')::date
  ) as "is_active"
from
  "a"
  inner join "users" as "u" on "u"."id" = "a"."user_id"
  inner join "ships" as "s" on "s"."id" = "a"."ship_id"
