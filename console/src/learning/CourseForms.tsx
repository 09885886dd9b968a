import { Group } from '@mantine/core'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { ConfirmButton } from '../shared/ConfirmButton.js'
import { EntityForm, type Field, orNull, type Values } from '../shared/EntityForm.js'
import { FormButton } from '../shared/FormButton.js'
import { MutationAlert } from '../shared/MutationAlert.js'
import { labelOf } from '../shared/labels.js'
import { QueryState } from '../shared/QueryState.js'
import { CERTIFICATE_TYPES, type CertificateType } from '../shared/record-types.js'

// The course creation request is snake_case on the wire (DECISIONS §1): the field names are the body's.
const FIELDS: Field[] = [
  { name: 'title', label: 'Title', required: true },
  { name: 'description', label: 'Description', type: 'textarea' },
  {
    name: 's3_path',
    label: 'Package location',
    required: true,
    description: 'Where the course package is stored, e.g. courses/fire-safety',
  },
  { name: 'launch_file', label: 'Launch file', required: true, description: 'The page the package starts at, e.g. index.html' },
  // The certificate template (DECISIONS §14). The months field carries the name the service's 422 gives
  // the template (`certificate`), so a validity out of range is shown under it.
  {
    name: 'certificateType',
    label: 'Certificate issued on pass',
    type: 'select',
    options: CERTIFICATE_TYPES.map((value) => ({ value, label: labelOf(value) })),
    description: 'Passing the course issues or renews this certificate, verified; leave empty for none',
  },
  { name: 'certificate', label: 'Certificate validity (months)', description: '1 to 120; the expiry date is the pass date plus this' },
]

type Template = { certificateType: CertificateType; validityMonths: number } | null

/** The template from the form: none without a type; a blank validity is sent as 0, which the service refuses. */
const templateOf = (v: Values): Template =>
  v.certificateType ? { certificateType: v.certificateType as CertificateType, validityMonths: Number(v.certificate?.trim() || 0) } : null

const templateValues = (template: Template) => ({
  certificateType: template?.certificateType ?? '',
  certificate: template ? String(template.validityMonths) : '',
})

const bodyOf = (v: Values) => ({
  title: v.title?.trim() ?? '',
  description: orNull(v.description),
  s3_path: v.s3_path?.trim() ?? '',
  launch_file: v.launch_file?.trim() ?? '',
  certificate: templateOf(v),
})

const useRefresh = () => {
  const queryClient = useQueryClient()
  return () => {
    queryClient.invalidateQueries({ queryKey: ['courses'] })
    queryClient.invalidateQueries({ queryKey: ['curriculums'] })
  }
}

export function NewCourseButton() {
  const { api, me } = useSession()
  const refresh = useRefresh()
  return (
    <FormButton label="New course" title="New course">
      {(close) => (
        <EntityForm
          label="New course"
          fields={FIELDS}
          initial={{ title: '', description: '', s3_path: '', launch_file: 'index.html', ...templateValues(null) }}
          submitLabel="Add course"
          save={(v) => unwrap(api.POST('/api/v1/courses/', { body: { organization_id: me.organization.id, ...bodyOf(v) } }))}
          onSaved={() => {
            refresh()
            close()
          }}
        />
      )}
    </FormButton>
  )
}

/** The edit form needs the package fields, which only the course itself carries (not the list). */
function EditCourse({ courseId, onSaved }: { courseId: string; onSaved: () => void }) {
  const { api } = useSession()
  const path = { params: { path: { course_id: courseId } } }
  const course = useQuery({ queryKey: ['courses', courseId], queryFn: () => unwrap(api.GET('/api/v1/courses/{course_id}', path)) })
  return (
    <QueryState query={course}>
      {(c) => (
        <EntityForm
          label="Edit course"
          fields={FIELDS}
          initial={{
            title: c.title,
            description: c.description ?? '',
            s3_path: c.s3_path,
            launch_file: c.launch_file,
            ...templateValues(c.certificate),
          }}
          submitLabel="Save course"
          save={(v) => unwrap(api.PATCH('/api/v1/courses/{course_id}', { ...path, body: bodyOf(v) }))}
          onSaved={onSaved}
        />
      )}
    </QueryState>
  )
}

export function CourseActions({ course }: { course: { id: string; title: string } }) {
  const { api } = useSession()
  const refresh = useRefresh()
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/v1/courses/{course_id}', { params: { path: { course_id: course.id } } })),
    onSuccess: refresh,
  })
  return (
    <Group gap="xs" wrap="wrap">
      <FormButton label="Edit" title={`Edit ${course.title}`} variant="default" size="xs" aria-label={`Edit ${course.title}`}>
        {(close) => (
          <EditCourse
            courseId={course.id}
            onSaved={() => {
              refresh()
              close()
            }}
          />
        )}
      </FormButton>
      <ConfirmButton label="Delete" question={`Delete ${course.title}?`} onConfirm={() => remove.mutate()} loading={remove.isPending} />
      {remove.isError && <MutationAlert mutation={remove} />}
    </Group>
  )
}
