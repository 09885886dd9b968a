import type { components } from '../../../client/index.js'
import type { Field, Values } from '../shared/EntityForm.js'
import { labelOf } from '../shared/labels.js'

export type User = components['schemas']['User']
type Role = User['role']

const ROLES: Role[] = ['crew', 'office_employee', 'office_admin', 'admin']

export const PERSON_FIELDS: Field[] = [
  { name: 'firstName', label: 'First name', required: true },
  { name: 'lastName', label: 'Last name', required: true },
  { name: 'email', label: 'E-mail', type: 'email', required: true },
  { name: 'role', label: 'Role', type: 'select', required: true, options: ROLES.map((r) => ({ value: r, label: labelOf(r) })) },
]

export const personValues = (user?: User): Values => ({
  firstName: user?.firstName ?? '',
  lastName: user?.lastName ?? '',
  email: user?.email ?? '',
  role: user?.role ?? 'crew',
})

export const personBody = (v: Values) => ({
  firstName: v.firstName?.trim() ?? '',
  lastName: v.lastName?.trim() ?? '',
  email: v.email?.trim() ?? '',
  role: (v.role || 'crew') as Role,
})
