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
              jsonb_strip_nulls(
                jsonb_build_object(
                  $12::text,
                  case
                    when "o"."role" is distinct from "a"."role" then jsonb_build_array("o"."role", "a"."role")
                  end,
                  $13::text,
                  case
                    when "o"."start_date" is distinct from "a"."start_date" then jsonb_build_array("o"."start_date", "a"."start_date")
                  end,
                  $14::text,
                  case
                    when "o"."due_date" is distinct from "a"."due_date" then jsonb_build_array("o"."due_date", "a"."due_date")
                  end,
                  $15::text,
                  case
                    when "o"."end_date" is distinct from "a"."end_date" then jsonb_build_array("o"."end_date", "a"."end_date")
                  end,
                  $16::text,
                  case
                    when (
                      "o"."end_date" is null
                      or "o"."end_date" >= (now() at time zone 'utc')::date
                    ) is distinct from (
                      "a"."end_date" is null
                      or "a"."end_date" >= (now() at time zone 'utc')::date
                    ) then jsonb_build_array(
                      (
                        "o"."end_date" is null
                        or "o"."end_date" >= (now() at time zone 'utc')::date
                      ),
                      (
                        "a"."end_date" is null
                        or "a"."end_date" >= (now() at time zone 'utc')::date
                      )
                    )
                  end
                )
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
