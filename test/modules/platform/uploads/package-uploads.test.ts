import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { useOrg } from '../../../factories.js'

// DECISIONS §13.7: a course package upload is for admins and office admins; every other kind keeps its §5
// limit (UPLOAD_MAX_BYTES, 25 MiB by default) for every role.

const t = useTestApp()
const org = useOrg(t)
const INTENT = '/api/v1/shared/uploads/intent'
const MIB = 1024 * 1024
const pkg = (size: number) => ({ kind: 'course_package', mime: 'application/zip', size, filename: 'course.zip' })

describe('course_package at the intent', () => {
  it('is for admins and office admins', async () => {
    for (const user of [org.admin, org.officeAdmin]) expect((await user.api.post(INTENT, pkg(30 * MIB))).status).toBe(201)
  })

  it('is 403 for office employees and crew, whatever its size', async () => {
    for (const user of [org.officeEmployee, org.crew]) {
      // Before the body's checks: a size past COURSE_PACKAGE_MAX_BYTES or a wrong media type is still a 403.
      for (const body of [pkg(1), pkg(30 * MIB), pkg(2 * 1024 * MIB), { ...pkg(1), mime: 'application/pdf' }]) {
        const res = await user.api.post(INTENT, body)
        expect(res.status).toBe(403)
        expect(res.body).toEqual({ detail: 'Only admins and office admins upload course packages' })
      }
    }
  })
})

describe('other kinds', () => {
  it('keep the upload limit for every role: 30 MiB is a 422, 25 MiB a 201', async () => {
    for (const user of [org.admin, org.officeAdmin, org.officeEmployee, org.crew]) {
      const document = (size: number) => ({ kind: 'certificate', mime: 'application/pdf', size, filename: 'scan.pdf' })
      const tooLarge = await user.api.post(INTENT, document(30 * MIB))
      expect(tooLarge.status).toBe(422)
      expect(tooLarge.body.detail[0].loc).toEqual(['body', 'size'])
      expect((await user.api.post(INTENT, document(25 * MIB))).status).toBe(201)
    }
  })
})
