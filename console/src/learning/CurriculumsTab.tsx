import { Group, Stack } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import type { components } from '../../../client/index.js'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { DataTable } from '../shared/DataTable.js'
import { useCan } from '../shared/permissions.js'
import { QueryState } from '../shared/QueryState.js'
import { CurriculumActions, CurriculumCourses, NewCurriculumButton } from './CurriculumForms.js'

type Curriculum = components['schemas']['Curriculum']

export function CurriculumsTab() {
  const { api } = useSession()
  const editable = useCan()('learn:courses:write')
  const curriculums = useQuery({
    queryKey: ['curriculums'],
    queryFn: () => unwrap(api.GET('/api/v1/learn/curriculums', { params: { query: { limit: 100 } } })),
  })
  return (
    <Stack>
      {editable && (
        <Group justify="end">
          <NewCurriculumButton />
        </Group>
      )}
      <QueryState query={curriculums}>
        {(page) => (
          <DataTable
            caption="Curriculums"
            rows={page.items}
            rowKey={(c) => c.id}
            columns={[
              { header: 'Title', cell: (c) => c.title },
              { header: 'Description', cell: (c) => c.description || '—' },
              { header: 'Courses', cell: (c) => <CurriculumCourses curriculum={c} editable={editable} /> },
              ...(editable ? [{ header: 'Actions', cell: (c: Curriculum) => <CurriculumActions curriculum={c} /> }] : []),
            ]}
          />
        )}
      </QueryState>
    </Stack>
  )
}
