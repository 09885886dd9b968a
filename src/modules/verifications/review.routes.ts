import type { App } from '../../app.js'
import type { Db } from '../../db/database.js'
import { STAFF } from '../../lib/access.js'
import { IdParams } from '../../lib/schemas.js'
import { RECORD_WRITERS, type RecordKind } from './records.js'
import { RejectBody, Verification } from './verifications.schemas.js'
import { type ReviewAction, review } from './verifications.service.js'

/** POST /api/v1/crew/<path>/{id}/submit|verify|reject for one kind of record (DECISIONS §8). */
export function registerReviewRoutes(app: App, db: Db, kind: RecordKind): void {
  const params = IdParams(kind.param)
  const url = (action: ReviewAction) => `/api/v1/crew/${kind.path}/:${kind.param}/${action}`
  const targetOf = (request: { params: unknown }) => ({ type: kind.target, id: (request.params as Record<string, string>)[kind.param] })
  const schema = (summary: string) => ({ tags: [kind.tag], summary, params, response: { 200: Verification } })

  app.post(url('submit'), { config: { roles: RECORD_WRITERS }, schema: schema('Submit for review') }, (request) =>
    review(db, request.actor, targetOf(request), kind.label, 'submit'),
  )
  app.post(url('verify'), { config: { roles: STAFF }, schema: schema('Verify') }, (request) =>
    review(db, request.actor, targetOf(request), kind.label, 'verify'),
  )
  app.post(url('reject'), { config: { roles: STAFF }, schema: { ...schema('Reject with a reason'), body: RejectBody } }, (request) =>
    review(db, request.actor, targetOf(request), kind.label, 'reject', (request.body as RejectBody).reason),
  )
}
