-- bulkRemoveCourses: two assignments, one course
with
  "input" ("id", "ord") as (
    select
      *
    from
      unnest($1::uuid[]) with ordinality
  ),
  "target" as (
    select
      "id"
    from
      "assignments"
    where
      "organization_id" = $2
      and "id" = any ($3::uuid[])
  ),
  "removed" as (
    delete from "assignment_courses" as "ac" using "target" as "t"
    where
      "ac"."assignment_id" = "t"."id"
      and "ac"."course_id" = any ($4::uuid[])
    returning
      "ac"."assignment_id",
      "ac"."course_id"
  ),
  "dropped" as (
    delete from "registrations" as "r" using "removed" as "x"
    where
      "r"."organization_id" = $5
      and "r"."assignment_id" = "x"."assignment_id"
      and "r"."course_id" = "x"."course_id"
      and "r"."attempt_count" = $6
    returning
      "r"."course_id"
  ),
  "unenrolled" as (
    update "course_stats" as "cs"
    set
      "enrollments" = cs.enrollments - d.n
    from
      (
        select
          "course_id",
          count(*)::int as "n"
        from
          "dropped"
        group by
          "course_id"
      ) as "d"
    where
      "cs"."course_id" = "d"."course_id"
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
      ($7::uuid[]) [row_number() over ()],
      $8::uuid,
      $9::text,
      $10::uuid,
      $11::text,
      $12::text,
      e.target_id,
      e.data,
      $13::text
    from
      (
        select
          assignment_id as target_id,
          jsonb_build_object(
            'courseIds',
            jsonb_agg(
              course_id
              order by
                course_id
            )
          ) as data
        from
          "removed"
        group by
          assignment_id
        order by
          assignment_id
      ) e
  )
select
  (
    select
      count(distinct assignment_id)
    from
      "removed"
  )::int as "updated_count",
  (
    select
      count(*)
    from
      "removed"
  )::int as "total",
  array(
    select
      i.id::text
    from
      input i
    where
      i.id not in (
        select
          id
        from
          target
      )
    order by
      i.ord
  ) as "failed"
