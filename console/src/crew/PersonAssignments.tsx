import { Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { unwrap } from '../api.js'
import { assignmentColumns } from '../assignments/assignment-columns.js'
import { MANAGERS } from '../auth/roles.js'
import { useSession } from '../auth/session.js'
import { DataTable } from '../shared/DataTable.js'
import { QueryState } from '../shared/QueryState.js'

/** Crew see their own (from /users/me); managers list anyone's; office employees may not list assignments. */
export function PersonAssignments({ userId, mine }: { userId: string; mine: boolean }) {
  const { api, me, role } = useSession()
  const canList = MANAGERS.includes(role)
  const list = useQuery({
    queryKey: ['assignments', { userId }],
    queryFn: () => unwrap(api.GET('/api/v1/assignments/', { params: { query: { user_id: userId, limit: 100 } } })),
    enabled: canList && !mine,
  })
  if (mine) return <DataTable caption="Assignments" rows={me.assignments} rowKey={(a) => a.id} columns={assignmentColumns} />
  if (!canList) return <Text c="dimmed">Assignments are shown to office admins and admins.</Text>
  return (
    <QueryState query={list}>
      {(page) => <DataTable caption="Assignments" rows={page.items} rowKey={(a) => a.id} columns={assignmentColumns} />}
    </QueryState>
  )
}
