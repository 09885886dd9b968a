import { Alert, Button, Group, MultiSelect, Select, Stack, Tabs, TextInput } from '@mantine/core'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { components } from '../../../client/index.js'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { BAD } from '../shared/colours.js'
import { errorText } from '../shared/errors.js'
import { BulkResults } from './BulkResults.js'
import { type BulkOutcome, outcomesOf } from './bulk-outcome.js'

type Assignment = components['schemas']['Assignment']
type Action = 'update' | 'add-courses' | 'remove-courses'
const TITLES: Record<Action, string> = { update: 'Update', 'add-courses': 'Add courses', 'remove-courses': 'Remove courses' }
const orUndefined = (value: string) => value.trim() || undefined

/** The bulk actions on the selected assignments, and what each did to every one of them. */
export function BulkActions({ ids, known, onDone }: { ids: string[]; known: Map<string, Assignment>; onDone: () => void }) {
  const { api } = useSession()
  const [role, setRole] = useState('')
  const [startDate, setStartDate] = useState('')
  const [dueDate, setDueDate] = useState('')
  const [endDate, setEndDate] = useState('')
  const [courseIds, setCourseIds] = useState<string[]>([])
  const [curriculumId, setCurriculumId] = useState<string | null>(null)
  const [result, setResult] = useState<{ title: string; outcomes: BulkOutcome[] } | null>(null)
  const courses = useQuery({
    queryKey: ['courses', 'all'],
    queryFn: () => unwrap(api.GET('/api/v1/courses/', { params: { query: { limit: 1000 } } })),
  })

  const curriculums = useQuery({
    queryKey: ['curriculums'],
    queryFn: () => unwrap(api.GET('/api/v1/learn/curriculums', { params: { query: { limit: 100 } } })),
  })

  const run = useMutation({
    mutationFn: async (action: Action): Promise<BulkOutcome[]> => {
      const assignmentIds = ids
      if (action === 'update') {
        const body = {
          assignmentIds,
          role: orUndefined(role),
          startDate: orUndefined(startDate),
          dueDate: orUndefined(dueDate),
          endDate: orUndefined(endDate),
        }
        const r = await unwrap(api.POST('/api/v1/learn/assignments/bulk/update', { body }))
        return outcomesOf(ids, r.failedAssignmentIds, r.errors)
      }
      if (action === 'add-courses') {
        // A curriculum adds its courses together with those listed (the service counts each course once).
        const body = { assignmentIds, courseIds, ...(curriculumId ? { curriculumId } : {}) }
        const r = await unwrap(api.POST('/api/v1/learn/assignments/bulk/courses', { body }))
        return outcomesOf(ids, r.failedAssignmentIds)
      }
      const r = await unwrap(api.POST('/api/v1/learn/assignments/bulk/remove-courses', { body: { assignmentIds, courseIds } }))
      return outcomesOf(ids, r.failedAssignmentIds)
    },
    onSuccess: (outcomes, action) => {
      setResult({ title: TITLES[action], outcomes })
      onDone()
    },
  })
  const courseOptions = (courses.data?.items ?? []).map((c) => ({ value: c.id, label: c.title }))
  const curriculumOptions = (curriculums.data?.items ?? []).map((c) => ({ value: c.id, label: `${c.title} (${c.courses.length} courses)` }))
  const none = ids.length === 0

  return (
    <Stack>
      <Tabs defaultValue="update">
        <Tabs.List>
          <Tabs.Tab value="update">Update</Tabs.Tab>
          <Tabs.Tab value="courses">Courses</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="update" pt="xs">
          <Group align="end">
            <TextInput label="Role" value={role} onChange={(e) => setRole(e.currentTarget.value)} />
            <TextInput label="Start" type="date" value={startDate} onChange={(e) => setStartDate(e.currentTarget.value)} />
            <TextInput label="Courses due" type="date" value={dueDate} onChange={(e) => setDueDate(e.currentTarget.value)} />
            <TextInput label="End" type="date" value={endDate} onChange={(e) => setEndDate(e.currentTarget.value)} />
            <Button disabled={none} loading={run.isPending} onClick={() => run.mutate('update')}>
              Update {ids.length} selected
            </Button>
          </Group>
        </Tabs.Panel>
        <Tabs.Panel value="courses" pt="xs">
          <Group align="end">
            <MultiSelect label="Courses" data={courseOptions} value={courseIds} onChange={setCourseIds} searchable miw={320} />
            <Select
              label="Curriculum"
              description="Adds all its courses"
              data={curriculumOptions}
              value={curriculumId}
              onChange={setCurriculumId}
              clearable
              searchable
            />
            <Button
              disabled={none || (courseIds.length === 0 && !curriculumId)}
              loading={run.isPending}
              onClick={() => run.mutate('add-courses')}
            >
              Add to {ids.length} selected
            </Button>
            <Button variant="outline" color={BAD} disabled={none || courseIds.length === 0} onClick={() => run.mutate('remove-courses')}>
              Remove from {ids.length} selected
            </Button>
          </Group>
        </Tabs.Panel>
      </Tabs>
      {run.isError && (
        <Alert color={BAD} role="alert">
          {errorText(run.error)}
        </Alert>
      )}
      {result && <BulkResults title={result.title} outcomes={result.outcomes} known={known} />}
    </Stack>
  )
}
