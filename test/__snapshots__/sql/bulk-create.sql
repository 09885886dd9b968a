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
      ($13::uuid[]) [row_number() over ()],
      $14::uuid,
      $15::text,
      $16::uuid,
      $17::text,
      $18::text,
      e.target_id,
      e.data,
      $19::text
    from
      (
        select
          "a"."id" as target_id,
          jsonb_build_object(
            $20::text,
            "a"."id",
            $21::text,
            "a"."user_id",
            $22::text,
            u.first_name || ' ' || u.last_name,
            $23::text,
            "u"."email",
            $24::text,
            "a"."ship_id",
            $25::text,
            "s"."name",
            $26::text,
            "s"."imo_number",
            $27::text,
            "a"."role",
            $28::text,
            "a"."start_date",
            $29::text,
            "a"."due_date",
            $30::text,
            "a"."end_date",
            $31::text,
            (
              "a"."end_date" is null
              or "a"."end_date" >= (now() at time zone 'utc')::date
            )
          ) as data
        from
          input i
          join created a on a.id = i.id
          join users u on u.id = a.user_id
          join ships s on s.id = a.ship_id
        order by
          i.ord
      ) e
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
