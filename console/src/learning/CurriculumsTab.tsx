import { useQuery } from '@tanstack/react-query'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { DataTable } from '../shared/DataTable.js'
import { QueryState } from '../shared/QueryState.js'

export function CurriculumsTab() {
  const { api } = useSession()
  const curriculums = useQuery({
    queryKey: ['curriculums'],
    queryFn: () => unwrap(api.GET('/api/v1/learn/curriculums', { params: { query: { limit: 100 } } })),
  })
  return (
    <QueryState query={curriculums}>
      {(page) => (
        <DataTable
          caption="Curriculums"
          rows={page.items}
          rowKey={(c) => c.id}
          columns={[
            { header: 'Title', cell: (c) => c.title },
            { header: 'Description', cell: (c) => c.description || '—' },
            { header: 'Courses', cell: (c) => c.courses.map((course) => course.title).join(', ') || '—' },
          ]}
        />
      )}
    </QueryState>
  )
}
