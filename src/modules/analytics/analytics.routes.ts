import { ADMIN } from '../../lib/access.js'
import type { ModulePlugin } from '../types.js'
import { courseDifficultyQuery } from './analytics.queries.js'
import { CourseDifficultyList, CourseDifficultyQuery } from './analytics.schemas.js'

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
}
