import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { createOrg, type TestOrg } from '../../../factories.js'
import { createAssignment, createShip } from '../../../fixtures/assignments.js'
import { addVerified, readiness, setRequirements } from '../../../fixtures/readiness.js'

// DECISIONS §10's addendum: two warnings, never blockers. `no_requirements` when the matrix has items and
// none matches the role (trimmed, case-insensitively) and there is no "*"; `overlapping_assignment` for each
// other assignment of the person whose dates meet this one's [startDate, through].

const t = useTestApp()
const AS_OF = '2030-01-10'

async function orgWithShip() {
  const org = await createOrg(t.app, t.database.db)
  return { org, ship: await createShip(org) }
}

const warningsOf = async (org: TestOrg, assignmentId: string) => (await readiness(org.admin, assignmentId, AS_OF)).warnings

describe('no_requirements', () => {
  it('warns of a role the matrix does not name, with the role as written, and is never a blocker', async () => {
    const { org, ship } = await orgWithShip()
    await setRequirements(org, [{ role: 'Able Seaman', documentTypes: ['passport'] }])
    const user = await org.addUser('crew')
    const bosun = await createAssignment(org, user, ship, { role: ' Bosun ', startDate: '2030-01-01', endDate: '2030-03-01' })
    const verdict = await readiness(org.admin, bosun.id, AS_OF)
    expect(verdict).toMatchObject({ ready: true, blockers: [] })
    expect(verdict.warnings).toEqual([
      {
        code: 'no_requirements',
        requirement: ' Bosun ',
        targetType: 'assignment',
        targetId: bosun.id,
        message: 'No requirements are set for the role  Bosun .',
      },
    ])
    const fleet = await org.admin.api.get(`/api/v1/learn/readiness?as_of=${AS_OF}&code=no_requirements`)
    expect(fleet.body.items).toMatchObject([{ assignmentId: bosun.id, ready: true, warningCount: 1, codes: ['no_requirements'] }])
    expect((await org.admin.api.get(`/api/v1/shared/ships/${ship.id}/readiness?as_of=${AS_OF}`)).body.byCode).toEqual({ no_requirements: 1 })
  })

  it('matches the role trimmed and case-insensitively: a named role has its requirements, not the warning', async () => {
    const { org, ship } = await orgWithShip()
    await setRequirements(org, [{ role: 'Able Seaman', documentTypes: ['passport'] }])
    const user = await org.addUser('crew')
    const ab = await createAssignment(org, user, ship, { role: '  able SEAMAN ', startDate: '2030-01-01', endDate: '2030-03-01' })
    const verdict = await readiness(org.admin, ab.id, AS_OF)
    expect(verdict.blockers.map((i: { code: string }) => i.code)).toEqual(['document_missing'])
    expect(verdict.warnings).toEqual([])
  })

  it('is not given when the matrix has a "*" item, nor when the matrix is empty', async () => {
    const { org, ship } = await orgWithShip()
    const user = await org.addUser('crew')
    const bosun = await createAssignment(org, user, ship, { role: 'Bosun', startDate: '2030-01-01', endDate: '2030-03-01' })
    expect(await warningsOf(org, bosun.id)).toEqual([])
    await addVerified(org, user, 'medical')
    await setRequirements(org, [
      { role: 'Able Seaman', documentTypes: ['passport'] },
      { role: '*', certificateTypes: ['medical'] },
    ])
    expect(await readiness(org.admin, bosun.id, AS_OF)).toMatchObject({ ready: true, blockers: [], warnings: [] })
    await setRequirements(org, [{ role: 'Able Seaman', documentTypes: ['passport'] }])
    expect((await warningsOf(org, bosun.id)).map((i: { code: string }) => i.code)).toEqual(['no_requirements'])
  })
})

describe('overlapping_assignment', () => {
  it("warns of each of the person's other assignments whose dates overlap, naming it; never a blocker", async () => {
    const { org, ship } = await orgWithShip()
    const user = await org.addUser('crew')
    const other = await org.addUser('crew')
    const first = await createAssignment(org, user, ship, { startDate: '2030-01-01', endDate: '2030-03-01' })
    const second = await createAssignment(org, user, await createShip(org), { startDate: '2030-03-01', endDate: '2030-05-01' })
    // One active assignment per person and ship (409): each on a ship of its own.
    const later = await createAssignment(org, user, await createShip(org), { startDate: '2030-05-02', endDate: '2030-06-01' })
    const openEnded = await createAssignment(org, user, await createShip(org), { startDate: '2030-02-01', endDate: null })
    await createAssignment(org, other, ship, { startDate: '2030-01-01', endDate: '2030-03-01' })
    const verdict = await readiness(org.admin, first.id, AS_OF)
    expect(verdict).toMatchObject({ ready: true, blockers: [] })
    const expected = [
      { id: second.id, message: 'This person is also assigned from 2030-03-01 to 2030-05-01, overlapping this assignment.' },
      { id: openEnded.id, message: 'This person is also assigned from 2030-02-01 with no end date, overlapping this assignment.' },
    ].sort((a, b) => (a.id < b.id ? -1 : 1))
    expect(verdict.warnings).toEqual(
      expected.map(({ id, message }) => ({ code: 'overlapping_assignment', requirement: null, targetType: 'assignment', targetId: id, message })),
    )
    // The open-ended one runs to as_of + openEndedHorizonDays (180): past the later one's start.
    expect((await warningsOf(org, later.id)).map((i: { targetId: string }) => i.targetId)).toEqual([openEnded.id])
    const fleet = await org.admin.api.get(`/api/v1/learn/readiness?as_of=${AS_OF}&user_id=${user.id}&code=overlapping_assignment`)
    expect(fleet.body.items.map((i: { assignmentId: string }) => i.assignmentId).sort()).toEqual(
      [first.id, second.id, later.id, openEnded.id].sort(),
    )
    expect(fleet.body.items.find((i: { assignmentId: string }) => i.assignmentId === first.id)).toMatchObject({ warningCount: 2, ready: true })
  })

  it('shows in a stored ship summary as soon as another assignment of the person is moved onto its dates or away', async () => {
    const { org, ship } = await orgWithShip()
    const user = await org.addUser('crew')
    await createAssignment(org, user, ship, { startDate: '2030-01-01', endDate: '2030-03-01' })
    const summary = async () => (await org.admin.api.get(`/api/v1/shared/ships/${ship.id}/readiness?as_of=${AS_OF}`)).body.byCode
    expect(await summary()).toEqual({})
    const elsewhere = await createAssignment(org, user, await createShip(org), { startDate: '2030-04-01', endDate: '2030-05-01' })
    expect(await summary()).toEqual({})
    const moved = await org.admin.api.patch(`/api/v1/assignments/${elsewhere.id}`, { startDate: '2030-02-15' })
    expect(moved.status).toBe(200)
    expect(await summary()).toEqual({ overlapping_assignment: 1 })
    expect((await org.admin.api.patch(`/api/v1/assignments/${elsewhere.id}`, { startDate: '2030-03-02' })).status).toBe(200)
    expect(await summary()).toEqual({})
  })
})
