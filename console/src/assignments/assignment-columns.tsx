import type { components } from '../../../client/index.js'
import type { Column } from '../shared/DataTable.js'
import { StatusBadge } from '../shared/StatusBadge.js'

type AnyAssignment = components['schemas']['MeAssignment'] | components['schemas']['Assignment']

/** The columns every assignment list shows; lists of all people add the person. */
export const assignmentColumns: Column<AnyAssignment>[] = [
  { header: 'Ship', cell: (a) => `${a.shipName} (IMO ${a.shipImoNumber})` },
  { header: 'Role', cell: (a) => a.role },
  { header: 'Start', cell: (a) => a.startDate ?? '—' },
  { header: 'Due', cell: (a) => a.dueDate ?? '—' },
  { header: 'End', cell: (a) => a.endDate ?? '—' },
  { header: 'State', cell: (a) => <StatusBadge status={a.isActive ? 'active' : 'inactive'} /> },
]
