import { describe, expect, it } from 'vitest'
import type { Role } from '../../../../src/db/schema.js'
import { useTestApp } from '../../../app.js'
import { type TestUser, useOrg } from '../../../factories.js'

const t = useTestApp()
const org = useOrg(t)

const UNKNOWN = '0190a000-0000-7000-8000-000000000000'

/**
 * One operation per permission the session reports, made so that it changes nothing when allowed (an
 * empty body is a 422, an unknown id a 404): the role check comes first, so only a refusal is a 403.
 */
const PROBES: Record<string, (user: TestUser) => Promise<{ status: number }>> = {
  'users:write': (u) => u.api.post('/api/v1/shared/users', {}),
  'ships:write': (u) => u.api.post('/api/v1/shared/ships', {}),
  'crew:write': (u) => u.api.post(`/api/v1/crew/users/${u.id}/identity-documents`, {}),
  'crew:review': (u) => u.api.post(`/api/v1/crew/identity-documents/${UNKNOWN}/verify`),
  'crew:submit': (u) => u.api.post(`/api/v1/crew/identity-documents/${UNKNOWN}/submit`),
  'learn:courses:write': (u) => u.api.post('/api/v1/courses/', {}),
  'learn:assignments:write': (u) => u.api.patch(`/api/v1/assignments/${UNKNOWN}`, {}),
  'learn:assignments:bulk': (u) => u.api.post('/api/v1/learn/assignments/bulk/update', {}),
  'learn:attempts:write': (u) => u.api.post(`/api/v1/learn/registrations/${UNKNOWN}/attempts`, {}),
  'learn:analytics': (u) => u.api.get('/api/v1/learn/admin/analytics/course-difficulty'),
  'learn:xapi:credentials': (u) => u.api.get('/api/v1/learn/xapi/credentials'),
  'learn:xapi:statements:read': (u) =>
    u.api.get(`/api/v1/learn/xapi/statements?statementId=${UNKNOWN}`, { 'x-experience-api-version': '1.0.3' }),
  'organization:write': (u) => u.api.patch('/api/v1/shared/organization', { name: 12 }),
  'requirements:write': (u) => u.api.put('/api/v1/crew/requirements', {}),
  'sso:manage': (u) => u.api.get('/api/v1/shared/organization/sso'),
  'webhooks:manage': (u) => u.api.get('/api/v1/shared/webhooks'),
  'audit:read': (u) => u.api.get('/api/v1/shared/audit-events'),
}

describe('users: the session permissions agree with what the API allows', () => {
  const users = (): [Role, TestUser][] => [
    ['admin', org.admin],
    ['office_admin', org.officeAdmin],
    ['office_employee', org.officeEmployee],
    ['crew', org.crew],
  ]

  it('answers 403 to exactly the operations whose permission (or its own-records form) the role lacks', async () => {
    const disagreements: string[] = []
    for (const [role, user] of users()) {
      const { permissions } = (await user.api.get<{ permissions: string[] }>('/api/v1/shared/users/me/session')).body
      for (const [permission, probe] of Object.entries(PROBES)) {
        const held = permissions.includes(permission) || permissions.includes(`${permission}:self`)
        const { status } = await probe(user)
        if ((status === 403) === held) disagreements.push(`${role} ${permission}: holds ${held}, API answered ${status}`)
      }
    }
    expect(disagreements).toEqual([])
  })

  it('names the console-only permissions for the roles that hold them', async () => {
    const session = async (user: TestUser) => (await user.api.get('/api/v1/shared/users/me/session')).body.permissions
    expect(await session(org.admin)).toEqual(
      expect.arrayContaining(['organization:write', 'requirements:write', 'sso:manage', 'webhooks:manage', 'audit:read']),
    )
    const officeAdmin = await session(org.officeAdmin)
    expect(officeAdmin).toContain('audit:read')
    expect(officeAdmin).not.toContain('organization:write')
    expect(await session(org.officeEmployee)).not.toContain('audit:read')
  })
})
