import { Group } from '@mantine/core'
import { useQueryClient } from '@tanstack/react-query'
import type { components } from '../../../client/index.js'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { EntityForm, type Field, orNull } from '../shared/EntityForm.js'
import { FormButton } from '../shared/FormButton.js'
import { DUE_HELP, ROLE_HELP } from './assignment-help.js'
import { useRoleSuggestions } from './role-options.js'

type Assignment = components['schemas']['Assignment']

const editFields = (roles: string[]): Field[] => [
  { name: 'role', label: 'Role', required: true, description: ROLE_HELP, suggestions: roles },
  { name: 'startDate', label: 'Start', type: 'date' },
  { name: 'dueDate', label: 'Due', type: 'date', description: DUE_HELP },
  { name: 'endDate', label: 'End', type: 'date' },
]

const END_FIELDS: Field[] = [
  { name: 'endDate', label: 'Signed off on', type: 'date', required: true, description: 'The last day of the assignment' },
]

const today = () => new Date().toISOString().slice(0, 10)

/** Edit or end (sign off) one assignment. */
export function AssignmentActions({ assignment: a }: { assignment: Assignment }) {
  const { api } = useSession()
  const queryClient = useQueryClient()
  const roles = useRoleSuggestions()
  const path = { params: { path: { assignment_id: a.id } } }
  const patch = (body: components['schemas']['AssignmentUpdate']) =>
    unwrap(api.PATCH('/api/v1/assignments/{assignment_id}', { ...path, body }))
  const saved = (close: () => void) => () => {
    queryClient.invalidateQueries({ queryKey: ['assignments'] })
    close()
  }
  const who = `${a.userName} on ${a.shipName}`
  return (
    <Group gap="xs" wrap="wrap">
      <FormButton label="Edit" title={`Edit the assignment of ${who}`} variant="default" size="xs" aria-label={`Edit ${who}`}>
        {(close) => (
          <EntityForm
            label="Edit assignment"
            fields={editFields(roles)}
            initial={{ role: a.role, startDate: a.startDate ?? '', dueDate: a.dueDate ?? '', endDate: a.endDate ?? '' }}
            submitLabel="Save assignment"
            save={(v) =>
              patch({ role: v.role?.trim() ?? '', startDate: orNull(v.startDate), dueDate: orNull(v.dueDate), endDate: orNull(v.endDate) })
            }
            onSaved={saved(close)}
          />
        )}
      </FormButton>
      {(!a.endDate || a.endDate > today()) && (
        <FormButton label="End" title={`End the assignment of ${who}`} variant="default" size="xs" aria-label={`End ${who}`}>
          {(close) => (
            <EntityForm
              label="End assignment"
              fields={END_FIELDS}
              initial={{ endDate: a.endDate ?? today() }}
              submitLabel="End assignment"
              save={(v) => patch({ endDate: v.endDate?.trim() || '' })}
              onSaved={saved(close)}
            />
          )}
        </FormButton>
      )}
    </Group>
  )
}
