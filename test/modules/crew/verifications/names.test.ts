import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { useOrg } from '../../../factories.js'

const t = useTestApp()
const org = useOrg(t)

describe('reviews: records and reviewers by name', () => {
  it('names the record and its reviewer on the profile and the person in the queue', async () => {
    const crew = await org.addUser('crew', { firstName: 'Ana', lastName: 'Silva' })
    const cert = (
      await org.officeAdmin.api.post(`/api/v1/crew/users/${crew.id}/certificates`, {
        certificateType: 'medical',
        certificateNumber: 'M-88',
      })
    ).body
    const queued = (await org.officeEmployee.api.get('/api/v1/crew/verifications')).body.items
    expect(queued.find((i: { targetId: string }) => i.targetId === cert.id)).toMatchObject({
      userId: crew.id,
      userName: 'Ana Silva',
      recordType: 'medical',
      recordNumber: 'M-88',
      reviewerName: null,
    })
    expect((await org.officeEmployee.api.post(`/api/v1/crew/certificates/${cert.id}/verify`)).status).toBe(200)
    const profile = (await org.admin.api.get(`/api/v1/crew/users/${crew.id}/verification`)).body
    expect(profile.items).toEqual([
      {
        targetType: 'certificate',
        targetId: cert.id,
        status: 'verified',
        rejectionReason: null,
        reviewedAt: expect.any(String),
        recordType: 'medical',
        recordNumber: 'M-88',
        reviewerName: 'Test office_employee',
      },
    ])
  })
})
