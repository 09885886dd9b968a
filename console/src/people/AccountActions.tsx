import { Button, Group, Stack } from '@mantine/core'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { ConfirmButton } from '../shared/ConfirmButton.js'
import { EntityForm } from '../shared/EntityForm.js'
import { FormButton } from '../shared/FormButton.js'
import { MutationAlert } from '../shared/MutationAlert.js'
import { type AccountLink, AccountLinkAlert } from './AccountLinkAlert.js'
import { PERSON_FIELDS, personBody, personValues, type User } from './person-fields.js'

type Shown = { purpose: 'invitation' | 'password_reset'; link: AccountLink }

/**
 * An admin's actions on a person's account: edit, suspend and restore, and the one-time links (a new
 * invitation for a pending person, a password reset for an active one). A link the New person form
 * was answered arrives in the navigation state and is shown the same way.
 */
export function AccountActions({ user }: { user: User }) {
  const { api, me } = useSession()
  const queryClient = useQueryClient()
  const location = useLocation()
  const navigate = useNavigate()
  const created = (location.state as { invitation?: AccountLink } | null)?.invitation
  const [shown, setShown] = useState<Shown | null>(created ? { purpose: 'invitation', link: created } : null)
  const path = { params: { path: { user_id: user.id } } }
  const issueLink = useMutation({
    mutationFn: async (purpose: Shown['purpose']): Promise<Shown> => {
      const call =
        purpose === 'invitation'
          ? api.POST('/api/v1/shared/users/{user_id}/invitation', path)
          : api.POST('/api/v1/shared/users/{user_id}/password-reset', path)
      return { purpose, link: await unwrap(call) }
    },
    onSuccess: setShown,
  })
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
        {user.state === 'pending' && (
          <Button variant="default" loading={issueLink.isPending} onClick={() => issueLink.mutate('invitation')}>
            Resend invitation
          </Button>
        )}
        {user.state === 'active' && (
          <Button variant="default" loading={issueLink.isPending} onClick={() => issueLink.mutate('password_reset')}>
            Reset password
          </Button>
        )}
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
      {issueLink.isError && <MutationAlert mutation={issueLink} />}
      {shown && (
        <AccountLinkAlert
          link={shown.link}
          purpose={shown.purpose}
          name={`${user.firstName} ${user.lastName}`}
          onDone={() => {
            setShown(null)
            // A reload must not bring back a link that may be spent by then.
            if (created) navigate(location.pathname, { replace: true, state: null })
          }}
        />
      )}
    </Stack>
  )
}
