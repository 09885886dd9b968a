-- questionDifficultyQuery: a course's hardest 20 questions
with
  "answers" as (
    select distinct
      on ("s"."registration", "s"."activity_id") "s"."activity_id",
      (s.statement #>> '{result,success}')::boolean::int::float8 as "correct",
      (r.status = 'passed')::int::float8 as "passed"
    from
      "registrations" as "r"
      inner join "xapi_statements" as "s" on "s"."organization_id" = $1
      and "s"."registration" = "r"."id"
    where
      "r"."organization_id" = $2
      and "r"."course_id" = $3
      and "s"."voided" = $4
      and "s"."activity_id" is not null
      and s.statement #> '{result,success}' is not null
      and (
        "s"."verb_id" = $5
        or s.statement #>> '{object,definition,type}' = $6
      )
    order by
      "s"."registration",
      "s"."activity_id",
      "s"."stored" desc,
      "s"."seq" desc
  ),
  "questions" as (
    select
      "activity_id",
      count(*)::int as "attempts",
      avg(correct) as "correct_rate",
      corr(correct, passed) as "discrimination"
    from
      "answers"
    group by
      "activity_id"
  )
select
  "q"."activity_id" as "activityId",
  coalesce(
    a.definition #>> '{description,en-US}',
    (
      select
        d.value
      from
        jsonb_each_text(a.definition -> 'description') as d
      order by
        d.key collate "C"
      limit
        1
    )
  ) as "description",
  "q"."attempts",
  "q"."correct_rate" as "correctRate",
  "q"."discrimination"
from
  "courses" as "c"
  left join "questions" as "q" on true
  left join "xapi_activities" as "a" on "a"."organization_id" = $7
  and "a"."id" = "q"."activity_id"
where
  "c"."organization_id" = $8
  and "c"."id" = $9
order by
  "q"."correct_rate" asc,
  q.activity_id collate "C" asc
limit
  $10
