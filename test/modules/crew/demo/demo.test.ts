import { describe, expect, it } from 'vitest'
import { seedDemo } from '../../../../src/modules/crew/demo/demo.service.js'
import { client, useTestApp } from '../../../app.js'

// The first start's demo organization has crewing data on every screen (issue 25, item 9).

const t = useTestApp()

async function demoAdmin() {
  const { logins } = await seedDemo(t.database.db)
  const admin = logins.find((login) => login.role === 'admin')!
  const signedIn = await client(t.app).post('/api/v1/auth/token', { email: admin.email, password: admin.password })
  expect(signedIn.status).toBe(200)
  return client(t.app, signedIn.body.access_token)
}

describe('the demo organization', () => {
  it('has crew with documents and certificates in every review state', async () => {
    const api = await demoAdmin()
    const crew = (await api.get('/api/v1/shared/users?role=crew&limit=100')).body.items
    expect(crew.map((user: { firstName: string }) => user.firstName).sort()).toEqual(['Aiko', 'Carlos', 'Jonas', 'Maria'])
    const statuses = new Set<string>()
    for (const user of crew) {
      const profile = await api.get(`/api/v1/crew/users/${user.id}/verification`)
      expect(profile.status).toBe(200)
      for (const kind of ['identity-documents', 'certificates']) {
        const records = await api.get(`/api/v1/crew/users/${user.id}/${kind}`)
        for (const record of records.body) statuses.add(record.verification.status)
      }
    }
    expect([...statuses].sort()).toEqual(['not_submitted', 'pending', 'rejected', 'verified'])
    const queue = await api.get('/api/v1/crew/verifications')
    expect(queue.status).toBe(200)
    expect(queue.body.items.length).toBe(3)
  })

  it('has assignments, one not ready with its blocker, and courses in a curriculum', async () => {
    const api = await demoAdmin()
    const assignments = (await api.get('/api/v1/assignments/?limit=100')).body.items
    expect(assignments).toHaveLength(3)
    const verdicts = await Promise.all(
      assignments.map(async (assignment: { id: string }) => (await api.get(`/api/v1/learn/assignments/${assignment.id}/readiness`)).body),
    )
    const notReady = verdicts.filter((verdict) => !verdict.ready)
    expect(notReady).toHaveLength(1)
    expect(notReady[0].blockers).toEqual([expect.objectContaining({ code: 'document_missing', requirement: 'medical' })])
    // Every role is covered ("*"), so none carries no_requirements; and the dates pass the form's own rules.
    expect(verdicts.flatMap((verdict) => verdict.warnings.map((w: { code: string }) => w.code))).not.toContain('no_requirements')
    expect((await api.get('/api/v1/crew/requirements')).body.items.map((item: { role: string }) => item.role)).toEqual(['Able Seaman', '*'])
    for (const a of assignments) expect(a.startDate <= a.dueDate && a.dueDate <= a.endDate).toBe(true)
    expect((await api.get('/api/v1/courses/')).body.items).toHaveLength(3)
    const [curriculum, ...others] = (await api.get('/api/v1/learn/curriculums')).body.items
    expect(others).toEqual([])
    expect(curriculum.title).toBe('Deck rating onboarding')
    expect(curriculum.courses).toHaveLength(2)
  })
})
