import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { insertCourse, useOrg } from '../../../factories.js'
import { addAssignment, addPeriod, addShip, putRequirements } from '../../../fixtures/sea-service.js'

const t = useTestApp()
const org = useOrg(t)

const AS_OF = '2030-01-10'
const START = '2030-01-20'

async function verdict(assignmentId: string, asOf = AS_OF) {
  const res = await org.admin.api.get(`/api/v1/learn/assignments/${assignmentId}/readiness?as_of=${asOf}`)
  expect(res.status).toBe(200)
  return res.body
}

const shortOf = (days: number, by: string) => ({
  code: 'sea_service_insufficient',
  requirement: 'sea_service',
  targetType: 'requirement',
  targetId: null,
  message: `${days} more days of verified sea service in this role are needed by ${by}.`,
})

describe('readiness: minSeaServiceDays (DECISIONS §14)', () => {
  it('blocks a person with too few verified days in the role by the start date; the larger of the role and "*" applies', async () => {
    await putRequirements(org, [
      { role: '*', minSeaServiceDays: 30 },
      { role: 'Second Officer', documentTypes: ['passport'], minSeaServiceDays: 100 },
    ])
    const ship = await addShip(org)
    const user = await org.addUser('crew')
    // 90 days as Second Officer, 50 as Cook; 40 more as Second Officer that are only pending, and 31 after the start.
    await addPeriod(org, user, { position: 'second officer ', startDate: '2029-01-01', endDate: '2029-03-31' })
    await addPeriod(org, user, { position: 'Cook', startDate: '2029-04-01', endDate: '2029-05-20' })
    await addPeriod(org, user, { position: 'Second Officer', startDate: '2029-06-01', endDate: '2029-07-10' }, 'pending')
    await addPeriod(org, user, { position: 'Second Officer', startDate: '2030-01-21', endDate: '2030-02-20' })
    const officer = await addAssignment(org, user, ship.id, { role: ' SECOND OFFICER', startDate: '2030-01-05', dueDate: '2030-01-08' })
    const courseId = await insertCourse(t.database.db, org.id)
    const assigned = await org.admin.api.post('/api/v1/learn/assignments/bulk/courses', { assignmentIds: [officer], courseIds: [courseId] })
    expect(assigned.status).toBe(200)

    const judged = await verdict(officer)
    // After the document codes, before the course codes.
    expect(judged.blockers.map((issue: { code: string }) => issue.code)).toEqual([
      'document_missing',
      'sea_service_insufficient',
      'course_overdue',
    ])
    expect(judged.blockers[1]).toEqual(shortOf(10, '2030-01-05'))
    expect(judged.ready).toBe(false)

    // 50 days as Cook meet "*"'s 30; no requirement at all: no blocker.
    const cook = await addAssignment(org, user, (await addShip(org)).id, { role: 'cook', startDate: START })
    expect((await verdict(cook)).blockers).toEqual([])
    const bosun = await addAssignment(org, user, (await addShip(org)).id, { role: 'Bosun', startDate: START })
    expect((await verdict(bosun)).blockers).toEqual([shortOf(30, START)])
  })

  it('counts as of as_of when the assignment has no start date, and the blocker clears once the days are verified', async () => {
    await putRequirements(org, [{ role: 'Bosun', minSeaServiceDays: 60 }])
    const user = await org.addUser('crew')
    await addPeriod(org, user, { position: 'Bosun', startDate: '2029-11-01' })
    const assignmentId = await addAssignment(org, user, (await addShip(org)).id, { role: 'Bosun' })
    // Open period: 1 November to 10 January is 71 days; to 20 December, 50.
    expect((await verdict(assignmentId)).blockers).toEqual([])
    expect((await verdict(assignmentId, '2029-12-20')).blockers).toEqual([shortOf(10, '2029-12-20')])
    await addPeriod(org, user, { position: 'Bosun', startDate: '2029-01-01', endDate: '2029-01-10' })
    expect((await verdict(assignmentId, '2029-12-20')).blockers).toEqual([])
  })

  it('agrees in the fleet list and the ship summary, and stored verdicts follow experience, start dates and requirements', async () => {
    await putRequirements(org, [{ role: 'Master', minSeaServiceDays: 40 }])
    const ship = await addShip(org)
    const user = await org.addUser('crew')
    await addPeriod(org, user, { position: 'Master', startDate: '2029-01-01', endDate: '2029-01-31' })
    const assignmentId = await addAssignment(org, user, ship.id, { role: 'Master', startDate: START })
    const summary = async () => {
      const res = await org.officeEmployee.api.get(`/api/v1/shared/ships/${ship.id}/readiness?as_of=${AS_OF}`)
      expect(res.status).toBe(200)
      return [res.body.ready, res.body.byCode]
    }
    const fleet = async () => {
      const res = await org.admin.api.get(`/api/v1/learn/readiness?as_of=${AS_OF}&ship_id=${ship.id}`)
      return res.body.items.map((item: { ready: boolean; codes: string[] }) => [item.ready, item.codes])
    }
    expect(await summary()).toEqual([0, { sea_service_insufficient: 1 }])
    expect(await fleet()).toEqual([[false, ['sea_service_insufficient']]])
    expect(await summary()).toEqual([0, { sea_service_insufficient: 1 }])

    // New verified experience: 31 + 10 days.
    const added = await addPeriod(org, user, { position: 'Master', startDate: '2029-03-01', endDate: '2029-03-10' })
    expect(await summary()).toEqual([1, {}])
    // Moving the start before the new period: 31 days again.
    expect((await org.admin.api.patch(`/api/v1/assignments/${assignmentId}`, { startDate: '2029-02-15' })).status).toBe(200)
    expect(await summary()).toEqual([0, { sea_service_insufficient: 1 }])
    expect((await org.admin.api.patch(`/api/v1/assignments/${assignmentId}`, { startDate: START })).status).toBe(200)
    expect(await summary()).toEqual([1, {}])
    // Taking the row back to review (a material edit) takes its days away.
    expect((await org.admin.api.patch(`/api/v1/crew/experience/${added}`, { endDate: '2029-03-09' })).status).toBe(200)
    expect(await summary()).toEqual([0, { sea_service_insufficient: 1 }])
    await putRequirements(org, [{ role: 'Master', minSeaServiceDays: 31 }])
    expect(await summary()).toEqual([1, {}])
    expect(await fleet()).toEqual([[true, []]])
  })
})
