-- bulkUpdateAssignments: role and endDate set, dueDate cleared, startDate kept
with
  "input" ("id", "ord") as (
    select
      *
    from
      unnest($1::uuid[]) with ordinality
  ),
  "target" as (
    select
      "a"."id",
      "i"."ord",
      "a"."user_id",
      "a"."ship_id",
      $2::text as "role",
      "a"."start_date" as "start_date",
      $3::date as "due_date",
      $4::date as "end_date",
      ($5::text, "a"."start_date", $6::date, $7::date) is distinct from (a.role, a.start_date, a.due_date, a.end_date) as "differs",
      "a"."role" as "old_role",
      "a"."start_date" as "old_start_date",
      "a"."due_date" as "old_due_date",
      "a"."end_date" as "old_end_date",
      (
        (
          $8::date is null
          or $9::date >= (now() at time zone 'utc')::date
        )
        and not (
          "a"."end_date" is null
          or "a"."end_date" >= (now() at time zone 'utc')::date
        )
      ) as "reactivates",
      array_remove(
        array[
          case
            when $10::date < "a"."start_date" then 'startDate after endDate'
          end,
          case
            when $11::date < "a"."start_date" then 'startDate after dueDate'
          end
        ],
        null
      ) as "date_problems"
    from
      "assignments" as "a"
      inner join "input" as "i" on "i"."id" = "a"."id"
    where
      "a"."organization_id" = $12
    for no key update of
      "a"
  ),
  "checked" as (
    select
      *,
      t.date_problems || case
        when t.reactivates
        and (
          exists (
            select
              1
            from
              assignments x
            where
              x.organization_id = $13
              and x.user_id = t.user_id
              and x.ship_id = t.ship_id
              and (
                "x"."end_date" is null
                or "x"."end_date" >= (now() at time zone 'utc')::date
              )
          )
          or exists (
            select
              1
            from
              target y
            where
              y.user_id = t.user_id
              and y.ship_id = t.ship_id
              and y.ord < t.ord
              and y.reactivates
              and cardinality(y.date_problems) = 0
          )
        ) then array[$14::text]
        else '{}'::text[]
      end as "problems"
    from
      "target" as "t"
  ),
  "updated" as (
    update "assignments" as "a"
    set
      "role" = "c"."role",
      "start_date" = "c"."start_date",
      "due_date" = "c"."due_date",
      "end_date" = "c"."end_date",
      "updated_at" = now()
    from
      "checked" as "c"
    where
      "a"."id" = "c"."id"
      and c.differs
      and cardinality(c.problems) = 0
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
      ($15::uuid[]) [row_number() over ()],
      $16::uuid,
      $17::text,
      $18::uuid,
      $19::text,
      $20::text,
      e.target_id,
      e.data,
      $21::text
    from
      (
        select
          c.id as target_id,
          jsonb_build_object('changes', x.changes) as data
        from
          checked c
          cross join lateral (
            select
              jsonb_build_object(
                $22::text,
                "c"."old_role",
                $23::text,
                "c"."old_start_date",
                $24::text,
                "c"."old_due_date",
                $25::text,
                "c"."old_end_date",
                $26::text,
                (
                  "c"."old_end_date" is null
                  or "c"."old_end_date" >= (now() at time zone 'utc')::date
                )
              ) as before,
              jsonb_build_object(
                $27::text,
                "c"."role",
                $28::text,
                "c"."start_date",
                $29::text,
                "c"."due_date",
                $30::text,
                "c"."end_date",
                $31::text,
                (
                  "c"."end_date" is null
                  or "c"."end_date" >= (now() at time zone 'utc')::date
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
          ) x
        where
          c.differs
          and cardinality(c.problems) = 0
          and x.changes <> '{}'::jsonb
      ) e
  )
select
  "i"."id" as "requested_id",
  coalesce(a.problems, array['not found']) as "problems",
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
  left join "checked" as "a" on "a"."id" = "i"."id"
  left join lateral (
    select
      "first_name",
      "last_name",
      "email"
    from
      "users"
    where
      "users"."id" = "a"."user_id"
    limit
      $32
  ) as "u" on true
  left join "ships" as "s" on "s"."id" = "a"."ship_id"
order by
  "i"."ord"
