-- bulkAddCourses: two assignments, one course
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
  "added" as (
    insert into
      "assignment_courses" ("assignment_id", "course_id", "organization_id")
    select
      "t"."id",
      "c"."course_id",
      $4::uuid as "organization_id"
    from
      "target" as "t"
      cross join (
        select
          unnest($5::uuid[]) as course_id
      ) as "c"
    on conflict do nothing
    returning
      "assignment_id",
      "course_id"
  ),
  "registered" as (
    insert into
      "registrations" (
        "id",
        "organization_id",
        "assignment_id",
        "course_id"
      )
    select
      seaworthy_uuid_v7 () as "id",
      $6::uuid as "organization_id",
      "assignment_id",
      "course_id"
    from
      "added"
    on conflict ("assignment_id", "course_id") do nothing
    returning
      "course_id"
  ),
  "enrolled" as (
    insert into
      "course_stats" ("course_id", "organization_id", "enrollments")
    select
      "course_id",
      $7::uuid as "organization_id",
      count(*)::int as "enrollments"
    from
      "registered"
    group by
      "course_id"
    on conflict ("course_id") do update
    set
      "enrollments" = course_stats.enrollments + excluded.enrollments
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
      ($8::uuid[]) [row_number() over ()],
      $9::uuid,
      $10::text,
      $11::uuid,
      $12::text,
      $13::text,
      e.target_id,
      e.data,
      $14::text
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
          "added"
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
      "added"
  )::int as "updated_count",
  (
    select
      count(*)
    from
      "added"
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
