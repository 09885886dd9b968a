-- updateAssignment: role only
with
  "o" as (
    select
      "id",
      "role",
      "start_date",
      "due_date",
      "end_date"
    from
      "assignments"
    where
      "organization_id" = $1
      and "id" = $2
    for update
  ),
  "a" as (
    update "assignments"
    set
      "role" = $3,
      "updated_at" = $4
    where
      "id" in (
        select
          "o"."id"
        from
          "o"
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
      ($5::uuid[]) [row_number() over ()],
      $6::uuid,
      $7::text,
      $8::uuid,
      $9::text,
      $10::text,
      e.target_id,
      e.data,
      $11::text
    from
      (
        select
          a.id as target_id,
          jsonb_build_object('changes', c.changes) as data
        from
          a
          join o on o.id = a.id
          cross join lateral (
            select
              jsonb_build_object(
                $12::text,
                "o"."role",
                $13::text,
                "o"."start_date",
                $14::text,
                "o"."due_date",
                $15::text,
                "o"."end_date",
                $16::text,
                (
                  "o"."end_date" is null
                  or "o"."end_date" >= (now() at time zone 'utc')::date
                )
              ) as before,
              jsonb_build_object(
                $17::text,
                "a"."role",
                $18::text,
                "a"."start_date",
                $19::text,
                "a"."due_date",
                $20::text,
                "a"."end_date",
                $21::text,
                (
                  "a"."end_date" is null
                  or "a"."end_date" >= (now() at time zone 'utc')::date
                )
              ) as after
          ) w
          cross join lateral (
            select
              (
                select
                  coalesce(
                    jsonb_object_agg(
                      f,
                      jsonb_build_array("w"."before" -> f, "w"."after" -> f)
                    ),
                    '{}'::jsonb
                  )
                from
                  jsonb_object_keys("w"."after") f
                where
                  f <> 'updatedAt'
                  and "w"."before" -> f is distinct from "w"."after" -> f
              ) as changes
          ) c
        where
          c.changes <> '{}'::jsonb
      ) e
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
  ) as "is_active",
  "o"."start_date" as "stored_start",
  "o"."due_date" as "stored_due",
  "o"."end_date" as "stored_end"
from
  "o"
  left join "a" on "a"."id" = "o"."id"
  left join "users" as "u" on "u"."id" = "a"."user_id"
  left join "ships" as "s" on "s"."id" = "a"."ship_id"
