import { Alert, Button, Group, Select, Stack, Text, Title } from '@mantine/core'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { DataTable } from '../shared/DataTable.js'
import { errorText } from '../shared/errors.js'
import { useCan } from '../shared/permissions.js'
import { QueryState } from '../shared/QueryState.js'
import { StatusBadge } from '../shared/StatusBadge.js'
import { launchCourse, type Registration, structureOf } from '../training/launch.js'
import { QuestionDifficulty } from './QuestionDifficulty.js'
import { SessionsPanel } from './SessionsPanel.js'

type Au = { index: number; title: string }

/** The course's registrations: each opens its sessions; Preview opens the course in Browse mode, recording nothing. */
function Registrations({ courseId, aus }: { courseId: string; aus: Au[] }) {
  const { api } = useSession()
  const [open, setOpen] = useState<string | null>(null)
  const registrations = useQuery({
    queryKey: ['course-registrations', courseId],
    queryFn: () => unwrap(api.GET('/api/v1/learn/registrations', { params: { query: { course_id: courseId, expand: true, limit: 100 } } })),
  })
  const preview = useMutation({
    mutationFn: (registrationId: string) =>
      launchCourse(api, registrationId, { auIndex: 0, launchMode: 'Browse', returnPath: '/console/learning' }),
  })
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        Registrations
      </Title>
      <QueryState query={registrations}>
        {(page) => (
          <DataTable
            caption="Registrations"
            rows={page.items}
            rowKey={(r: Registration) => r.id}
            columns={[
              { header: 'Person', cell: (r) => r.user_name },
              { header: 'Ship', cell: (r) => r.ship_name },
              { header: 'Status', cell: (r) => <StatusBadge status={r.status} /> },
              { header: 'Score', cell: (r) => (r.score_percent === null ? '—' : `${r.score_percent} %`) },
              {
                header: 'Actions',
                cell: (r) => (
                  <Group gap="xs" wrap="nowrap">
                    <Button size="xs" variant="default" onClick={() => setOpen(open === r.id ? null : r.id)} aria-expanded={open === r.id}>
                      Sessions
                    </Button>
                    {aus.length > 0 && (
                      <Button
                        size="xs"
                        variant="subtle"
                        onClick={() => preview.mutate(r.id)}
                        loading={preview.isPending && preview.variables === r.id}
                      >
                        Preview
                      </Button>
                    )}
                  </Group>
                ),
              },
            ]}
          />
        )}
      </QueryState>
      {preview.isError && <Alert color="red">{errorText(preview.error)}</Alert>}
      {open && <SessionsPanel registrationId={open} aus={aus} />}
    </Stack>
  )
}

/** One course's package: its AUs and their rules, its registrations and sessions, and its questions' difficulty. */
export function CourseDetailTab() {
  const { api } = useSession()
  const can = useCan()
  const [courseId, setCourseId] = useState<string | null>(null)
  const courses = useQuery({
    queryKey: ['courses', 'all'],
    queryFn: () => unwrap(api.GET('/api/v1/courses/', { params: { query: { limit: 1000 } } })),
  })
  const structure = useQuery({
    queryKey: ['course-structure', courseId],
    queryFn: () => structureOf(api, courseId as string),
    enabled: courseId !== null,
  })
  const aus = structure.data?.aus ?? []
  return (
    <Stack>
      <Select
        label="Course"
        searchable
        data={(courses.data?.items ?? []).map((c) => ({ value: c.id, label: c.title }))}
        value={courseId}
        onChange={setCourseId}
        maw={480}
      />
      {courseId && (
        <QueryState query={structure}>
          {(s) =>
            s === null ? (
              <Text>This course has no package: it was created as a pointer and records results through attempts.</Text>
            ) : (
              <Stack gap="xs">
                <Title order={3} size="h5">
                  Structure ({s.standard})
                </Title>
                <DataTable
                  caption="Assignable units"
                  rows={s.aus}
                  rowKey={(a) => String(a.index)}
                  columns={[
                    { header: '#', cell: (a) => a.index },
                    { header: 'Title', cell: (a) => a.title },
                    { header: 'Move on', cell: (a) => a.moveOn },
                    { header: 'Mastery score', cell: (a) => (a.masteryScore === null ? '—' : `${Math.round(a.masteryScore * 100)} %`) },
                    { header: 'Opens', cell: (a) => (a.launchMethod === 'OwnWindow' ? 'Own window' : 'Any window') },
                  ]}
                />
              </Stack>
            )
          }
        </QueryState>
      )}
      {courseId && <Registrations courseId={courseId} aus={aus} />}
      {courseId && can('learn:analytics') && <QuestionDifficulty courseId={courseId} />}
    </Stack>
  )
}
