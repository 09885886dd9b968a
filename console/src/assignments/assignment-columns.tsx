import type { components } from '../../../client/index.js'
import type { Column } from '../shared/DataTable.js'
import { StatusBadge } from '../shared/StatusBadge.js'

type AnyAssignment = components['schemas']['MeAssignment'] | components['schemas']['Assignment']

/** Active, active with today its last day ("Ends today"), or not active. */
export const stateOf = (a: Pick<AnyAssignment, 'isActive' | 'endDate'>, today = new Date().toISOString().slice(0, 10)) =>
  a.isActive ? (a.endDate === today ? 'ends_today' : 'active') : 'inactive'

/** The columns every assignment list shows; lists of all people add the person. */
export const assignmentColumns: Column<AnyAssignment>[] = [
  { header: 'Ship', cell: (a) => `${a.shipName} (IMO ${a.shipImoNumber})` },
  { header: 'Role', cell: (a) => a.role },
  { header: 'Start', cell: (a) => a.startDate ?? '—' },
  { header: 'Courses due', cell: (a) => a.dueDate ?? '—' },
  { header: 'End', cell: (a) => a.endDate ?? '—' },
  { header: 'State', cell: (a) => <StatusBadge status={stateOf(a)} /> },
]
