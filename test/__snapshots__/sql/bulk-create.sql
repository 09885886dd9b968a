-- bulkInsertAssignments: three users on one ship
with
  "input" ("id", "user_id", "ord") as (
    select
      *
    from
      unnest($1::uuid[], $2::uuid[]) with ordinality
  ),
  "created" as (
    insert into
      "assignments" (
        "id",
        "organization_id",
        "user_id",
        "ship_id",
        "role",
        "start_date",
        "due_date",
        "end_date"
      )
    select
      "i"."id",
      $3::uuid as "organization_id",
      "i"."user_id",
      $4::uuid as "ship_id",
      $5::text as "role",
      $6::date as "start_date",
      $7::date as "due_date",
      $8::date as "end_date"
    from
      "input" as "i"
    where
      not exists (
        select
          "x"."id"
        from
          "assignments" as "x"
        where
          "x"."organization_id" = $9
          and "x"."ship_id" = $10
          and "x"."user_id" = "i"."user_id"
          and (
            "x"."end_date" is null
            or "x"."end_date" >= (now() at time zone 'utc')::date
          )
          and (
            $11::date is null
            or $12::date >= (now() at time zone 'utc')::date
          )
      )
    returning
      *
  )
select
  "i"."user_id" as "requested_user_id",
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
  "input" as "i"
  left join "created" as "a" on "a"."id" = "i"."id"
  left join "users" as "u" on "u"."id" = "a"."user_id"
  left join "ships" as "s" on "s"."id" = "a"."ship_id"
order by
  "i"."ord"
