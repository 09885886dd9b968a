import { Group, Stack } from '@mantine/core'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { ConfirmButton } from '../shared/ConfirmButton.js'
import { EntityForm } from '../shared/EntityForm.js'
import { FormButton } from '../shared/FormButton.js'
import { MutationAlert } from '../shared/MutationAlert.js'
import { PERSON_FIELDS, personBody, personValues, type User } from './person-fields.js'

/** An admin's actions on a person's account: edit, suspend and restore. */
export function AccountActions({ user }: { user: User }) {
  const { api, me } = useSession()
  const queryClient = useQueryClient()
  const path = { params: { path: { user_id: user.id } } }
  const saved = (updated: User) => {
    queryClient.setQueryData(['user', user.id], updated)
    queryClient.invalidateQueries({ queryKey: ['roster'] })
  }
  const setState = useMutation({
    mutationFn: (state: 'active' | 'suspended') => unwrap(api.PATCH('/api/v1/shared/users/{user_id}', { ...path, body: { state } })),
    onSuccess: saved,
  })
  const self = user.id === me.user.id
  return (
    <Stack gap="xs">
      <Group gap="xs" wrap="wrap">
        <FormButton label="Edit person" title={`Edit ${user.firstName} ${user.lastName}`} variant="default">
          {(close) => (
            <EntityForm
              label="Edit person"
              fields={PERSON_FIELDS}
              initial={personValues(user)}
              submitLabel="Save person"
              save={(v) => unwrap(api.PATCH('/api/v1/shared/users/{user_id}', { ...path, body: personBody(v) }))}
              onSaved={(updated) => {
                saved(updated)
                close()
              }}
            />
          )}
        </FormButton>
        {user.state === 'suspended' ? (
          <ConfirmButton
            label="Restore"
            question={`Let ${user.firstName} ${user.lastName} sign in again?`}
            onConfirm={() => setState.mutate('active')}
            loading={setState.isPending}
          />
        ) : (
          !self && (
            <ConfirmButton
              label="Suspend"
              question={`Suspend ${user.firstName} ${user.lastName}? They are signed out at once.`}
              onConfirm={() => setState.mutate('suspended')}
              loading={setState.isPending}
            />
          )
        )}
      </Group>
      <MutationAlert mutation={setState} saved={user.state === 'suspended' ? 'Suspended.' : 'Restored.'} />
    </Stack>
  )
}
