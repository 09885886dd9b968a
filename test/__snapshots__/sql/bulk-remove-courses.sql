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
