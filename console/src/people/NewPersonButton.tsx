import { useQueryClient } from '@tanstack/react-query'
import { useNavigate } from 'react-router'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { EntityForm } from '../shared/EntityForm.js'
import { FormButton } from '../shared/FormButton.js'
import { PERSON_FIELDS, personBody, personValues } from './person-fields.js'

/**
 * Adds a person without a password: they are `pending` until they accept their invitation, which their
 * profile then offers to send.
 */
export function NewPersonButton() {
  const { api } = useSession()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  return (
    <FormButton label="New person" title="New person">
      {() => (
        <EntityForm
          label="New person"
          fields={PERSON_FIELDS}
          initial={personValues()}
          submitLabel="Add person"
          save={(v) => unwrap(api.POST('/api/v1/shared/users', { body: personBody(v) }))}
          onSaved={(user) => {
            queryClient.invalidateQueries({ queryKey: ['roster'] })
            navigate(`/crew/${user.id}`, { state: { created: true } })
          }}
        />
      )}
    </FormButton>
  )
}
