import { ADMIN } from '../../../lib/access.js'
import { notFound } from '../../../lib/errors.js'
import type { ModulePlugin } from '../../types.js'
import { courseDifficultyQuery, questionDifficultyQuery } from './analytics.queries.js'
import { CourseDifficultyList, CourseDifficultyQuery, QuestionDifficultyList, QuestionDifficultyParams } from './analytics.schemas.js'

export const analyticsRoutes: ModulePlugin = (app, { db }) => {
  app.get(
    '/course-difficulty',
    {
      config: { roles: ADMIN },
      schema: {
        operationId: 'getCourseDifficulty',
        description: 'Admins only. Per course: mean attempts, pass rate and enrollments, hardest first.',
        tags: ['analytics'],
        summary: 'Course difficulty, hardest first',
        querystring: CourseDifficultyQuery,
        response: { 200: CourseDifficultyList },
      },
    },
    async (request) => ({ data: await courseDifficultyQuery(db, request.actor.orgId, request.query.limit).execute() }),
  )

  app.get(
    '/course-difficulty/:course_id/questions',
    {
      config: { roles: ADMIN },
      schema: {
        operationId: 'getQuestionDifficulty',
        description:
          "Admins only. Per question answered in the course's registrations (xAPI `answered` statements and `cmi.interaction` activities, voided ones left out): how many registrations answered it, the share right and the discrimination, hardest first (lowest `correctRate`, then `activityId`). Each registration counts once per question, by its latest answer. An empty list for a course without answers; another organization's course is 404 like a missing one.",
        tags: ['analytics'],
        summary: "A course's questions, hardest first",
        params: QuestionDifficultyParams,
        querystring: CourseDifficultyQuery,
        response: { 200: QuestionDifficultyList },
      },
    },
    async (request) => {
      const { orgId } = request.actor
      const rows = await questionDifficultyQuery(db, orgId, request.params.course_id, request.query.limit).execute()
      if (rows.length === 0) throw notFound('Course')
      // A course without answers is its one row of nulls.
      return {
        data: rows.flatMap(({ activityId, attempts, correctRate, ...rest }) =>
          activityId === null || attempts === null || correctRate === null ? [] : [{ activityId, attempts, correctRate, ...rest }],
        ),
      }
    },
  )
}
