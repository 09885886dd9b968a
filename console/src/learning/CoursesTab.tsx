import { Group, Stack, TextInput } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { useInfiniteQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { DataTable } from '../shared/DataTable.js'
import { LoadMore } from '../shared/LoadMore.js'
import { useCan } from '../shared/permissions.js'
import { QueryState } from '../shared/QueryState.js'
import { CourseActions, NewCourseButton } from './CourseForms.js'

export function CoursesTab() {
  const { api } = useSession()
  const editable = useCan()('learn:courses:write')
  const [search, setSearch] = useState('')
  const [debounced] = useDebouncedValue(search.trim(), 250)
  const courses = useInfiniteQuery({
    queryKey: ['courses', debounced],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/api/v1/courses/', {
          params: { query: { limit: 25, cursor: pageParam, search: debounced || undefined, include_count: true } },
        }),
      ),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  })
  return (
    <Stack>
      <Group align="end" justify="space-between" wrap="wrap">
        <TextInput label="Search courses" value={search} onChange={(e) => setSearch(e.currentTarget.value)} maxLength={200} />
        {editable && <NewCourseButton />}
      </Group>
      <QueryState query={courses}>
        {(data) => (
          <DataTable
            caption={`Courses (${data.pages[0]?.totalCount ?? 0})`}
            rows={data.pages.flatMap((p) => p.items)}
            rowKey={(c) => c.id}
            columns={[
              { header: 'Title', cell: (c) => c.title },
              { header: 'Description', cell: (c) => c.description ?? '—' },
              { header: 'Enrolled', cell: (c) => c.enrollmentCount },
              { header: 'Created', cell: (c) => c.createdAt.slice(0, 10) },
              ...(editable ? [{ header: 'Actions', cell: (c: { id: string; title: string }) => <CourseActions course={c} /> }] : []),
            ]}
          />
        )}
      </QueryState>
      <LoadMore query={courses} />
    </Stack>
  )
}
