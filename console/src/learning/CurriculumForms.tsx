import { Group, Pill, Select, Stack } from '@mantine/core'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { components } from '../../../client/index.js'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { ConfirmButton } from '../shared/ConfirmButton.js'
import { EntityForm, type Field, orNull, type Values } from '../shared/EntityForm.js'
import { FormButton } from '../shared/FormButton.js'
import { MutationAlert } from '../shared/MutationAlert.js'

type Curriculum = components['schemas']['Curriculum']

const FIELDS: Field[] = [
  { name: 'title', label: 'Title', required: true },
  { name: 'description', label: 'Description', type: 'textarea' },
]
const bodyOf = (v: Values) => ({ title: v.title?.trim() ?? '', description: orNull(v.description) })

const useRefresh = () => {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: ['curriculums'] })
}

export function NewCurriculumButton() {
  const { api } = useSession()
  const refresh = useRefresh()
  return (
    <FormButton label="New curriculum" title="New curriculum">
      {(close) => (
        <EntityForm
          label="New curriculum"
          fields={FIELDS}
          initial={{ title: '', description: '' }}
          submitLabel="Add curriculum"
          save={(v) => unwrap(api.POST('/api/v1/learn/curriculums', { body: bodyOf(v) }))}
          onSaved={() => {
            refresh()
            close()
          }}
        />
      )}
    </FormButton>
  )
}

/** A curriculum's courses, each removable, and a select to add one more. */
export function CurriculumCourses({ curriculum: c, editable }: { curriculum: Curriculum; editable: boolean }) {
  const { api } = useSession()
  const refresh = useRefresh()
  const path = { curriculum_id: c.id }
  const courses = useQuery({
    queryKey: ['courses', 'all'],
    queryFn: () => unwrap(api.GET('/api/v1/courses/', { params: { query: { limit: 1000 } } })),
    enabled: editable,
  })
  const add = useMutation({
    mutationFn: (courseId: string) =>
      unwrap(api.POST('/api/v1/learn/curriculums/{curriculum_id}/courses', { params: { path, query: { course_id: courseId } } })),
    onSuccess: refresh,
  })
  const remove = useMutation({
    mutationFn: (courseId: string) =>
      unwrap(
        api.DELETE('/api/v1/learn/curriculums/{curriculum_id}/courses/{course_id}', { params: { path: { ...path, course_id: courseId } } }),
      ),
    onSuccess: refresh,
  })
  const present = new Set(c.courses.map((course) => course.courseId))
  const choices = (courses.data?.items ?? []).filter((course) => !present.has(course.id)).map((x) => ({ value: x.id, label: x.title }))
  return (
    <Stack gap={4}>
      <Group gap={4} wrap="wrap">
        {c.courses.length === 0 && '—'}
        {c.courses.map((course) => (
          <Pill
            key={course.courseId}
            withRemoveButton={editable}
            onRemove={() => remove.mutate(course.courseId)}
            removeButtonProps={{ 'aria-label': `Remove ${course.title} from ${c.title}` }}
          >
            {course.title}
          </Pill>
        ))}
      </Group>
      {editable && (
        <Select
          aria-label={`Add a course to ${c.title}`}
          placeholder="Add a course"
          data={choices}
          value={null}
          onChange={(v) => v && add.mutate(v)}
          searchable
          size="xs"
        />
      )}
      {add.isError && <MutationAlert mutation={add} />}
      {remove.isError && <MutationAlert mutation={remove} />}
    </Stack>
  )
}

export function CurriculumActions({ curriculum: c }: { curriculum: Curriculum }) {
  const { api } = useSession()
  const refresh = useRefresh()
  const path = { params: { path: { curriculum_id: c.id } } }
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/v1/learn/curriculums/{curriculum_id}', path)),
    onSuccess: refresh,
  })
  return (
    <Group gap="xs" wrap="wrap">
      <FormButton label="Edit" title={`Edit ${c.title}`} variant="default" size="xs" aria-label={`Edit ${c.title}`}>
        {(close) => (
          <EntityForm
            label="Edit curriculum"
            fields={FIELDS}
            initial={{ title: c.title, description: c.description }}
            submitLabel="Save curriculum"
            save={(v) => unwrap(api.PATCH('/api/v1/learn/curriculums/{curriculum_id}', { ...path, body: bodyOf(v) }))}
            onSaved={() => {
              refresh()
              close()
            }}
          />
        )}
      </FormButton>
      <ConfirmButton label="Delete" question={`Delete ${c.title}?`} onConfirm={() => remove.mutate()} loading={remove.isPending} />
      {remove.isError && <MutationAlert mutation={remove} />}
    </Group>
  )
}
