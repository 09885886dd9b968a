import { v7 as uuidv7 } from 'uuid'
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { createOrg } from '../../../factories.js'
import { enroll } from '../../../fixtures/registrations.js'

const t = useTestApp()

const path = (id: string) => `/api/v1/learn/registrations/${id}/attempts`

async function setup() {
  const org = await createOrg(t.app, t.database.db)
  const { registrationId } = await enroll(t.database.db, org.id, org.crew.id)
  const attemptRows = () => t.database.db.selectFrom('attempts').selectAll().where('registration_id', '=', registrationId).execute()
  return { org, registrationId, attemptRows }
}

describe('attempt validation', () => {
  it('reports every problem of the body at once', async () => {
    const s = await setup()
    const res = await s.org.crew.api.post(path('not-a-uuid'), {
      attemptId: 'x',
      passed: 'yes',
      score_percent: 101,
      time_spent_seconds: -1,
      finished_at: 'yesterday',
    })
    expect(res.status).toBe(422)
    expect(res.body.detail).toEqual([
      { loc: ['path', 'registration_id'], msg: expect.any(String), type: 'uuid_parsing' },
      { loc: ['body', 'attemptId'], msg: expect.any(String), type: 'uuid_parsing' },
      { loc: ['body', 'passed'], msg: expect.any(String), type: 'bool_parsing' },
      { loc: ['body', 'score_percent'], msg: expect.any(String), type: 'less_than_equal' },
      { loc: ['body', 'time_spent_seconds'], msg: expect.any(String), type: 'greater_than_equal' },
      { loc: ['body', 'finished_at'], msg: expect.any(String), type: 'datetime_parsing' },
    ])
  })

  it('requires attemptId and passed, and integers for the figures', async () => {
    const s = await setup()
    const missing = await s.org.crew.api.post(path(s.registrationId), {})
    expect(missing.status).toBe(422)
    expect(missing.body.detail).toEqual([
      { loc: ['body', 'attemptId'], msg: 'Field required', type: 'missing' },
      { loc: ['body', 'passed'], msg: 'Field required', type: 'missing' },
    ])
    const fractional = await s.org.crew.api.post(path(s.registrationId), {
      attemptId: uuidv7(),
      passed: true,
      score_percent: 50.5,
      time_spent_seconds: '3',
    })
    expect(fractional.body.detail).toEqual([
      { loc: ['body', 'score_percent'], msg: expect.any(String), type: 'int_parsing' },
      { loc: ['body', 'time_spent_seconds'], msg: expect.any(String), type: 'int_parsing' },
    ])
    expect(await s.attemptRows()).toEqual([])
  })
})
