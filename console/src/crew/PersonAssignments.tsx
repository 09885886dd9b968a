import { Stack, Text } from '@mantine/core'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { unwrap } from '../api.js'
import { AssignmentActions } from '../assignments/AssignmentActions.js'
import { CreateAssignment } from '../assignments/CreateAssignment.js'
import { assignmentColumns } from '../assignments/assignment-columns.js'
import { MANAGERS } from '../auth/roles.js'
import { useSession } from '../auth/session.js'
import { DataTable } from '../shared/DataTable.js'
import { useCan } from '../shared/permissions.js'
import { QueryState } from '../shared/QueryState.js'

/** Crew see their own (from /users/me); managers list anyone's and assign, edit and end; office employees may not list assignments. */
export function PersonAssignments({ userId, mine }: { userId: string; mine: boolean }) {
  const { api, me, role } = useSession()
  const queryClient = useQueryClient()
  const editable = useCan()('learn:assignments:write')
  const canList = MANAGERS.includes(role)
  const list = useQuery({
    queryKey: ['assignments', { userId }],
    queryFn: () => unwrap(api.GET('/api/v1/assignments/', { params: { query: { user_id: userId, limit: 100 } } })),
    enabled: canList && !mine,
  })
  if (mine) return <DataTable caption="Assignments" rows={me.assignments} rowKey={(a) => a.id} columns={assignmentColumns} />
  if (!canList) return <Text c="dimmed">Assignments are shown to office admins and admins.</Text>
  return (
    <Stack>
      {editable && <CreateAssignment userId={userId} onCreated={() => queryClient.invalidateQueries({ queryKey: ['assignments'] })} />}
      <QueryState query={list}>
        {(page) => (
          <DataTable
            caption="Assignments"
            rows={page.items}
            rowKey={(a) => a.id}
            columns={[
              ...assignmentColumns,
              ...(editable ? [{ header: 'Actions', cell: (a: (typeof page.items)[number]) => <AssignmentActions assignment={a} /> }] : []),
            ]}
          />
        )}
      </QueryState>
    </Stack>
  )
}
