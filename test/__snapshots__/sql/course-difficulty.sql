-- courseDifficultyQuery: hardest 20 courses
select
  "course_stats"."course_id" as "courseId",
  "courses"."title" as "course",
  (
    case
      when attempted = 0 then 0::float8
      else attempts_total::float8 / attempted
    end
  ) as "avgAttempts",
  (
    case
      when attempted = 0 then 0::float8
      else passed::float8 / attempted
    end
  ) as "passRate",
  "course_stats"."enrollments"
from
  "course_stats"
  inner join "courses" on "courses"."id" = "course_stats"."course_id"
where
  "course_stats"."organization_id" = $1
  and "course_stats"."enrollments" > $2
order by
  (
    case
      when attempted = 0 then 0::float8
      else passed::float8 / attempted
    end
  ) asc,
  (
    case
      when attempted = 0 then 0::float8
      else attempts_total::float8 / attempted
    end
  ) desc,
  "course_stats"."enrollments" desc,
  "course_stats"."course_id" asc
limit
  $3
