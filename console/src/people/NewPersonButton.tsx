import { useQueryClient } from '@tanstack/react-query'
import { useNavigate } from 'react-router'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { EntityForm } from '../shared/EntityForm.js'
import { FormButton } from '../shared/FormButton.js'
import { PERSON_FIELDS, personBody, personValues } from './person-fields.js'

/**
 * Adds a person without a password: they are `pending` until they accept their invitation. The
 * service answers the invitation link, which their profile then shows to copy (and can issue anew).
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
            navigate(`/crew/${user.id}`, { state: { invitation: user.invitation } })
          }}
        />
      )}
    </FormButton>
  )
}
