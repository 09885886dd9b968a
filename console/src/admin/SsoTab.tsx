import { Button, Group, PasswordInput, Select, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import type { components } from '../../../client/index.js'
import { ApiError, unwrap } from '../api.js'
import { ssoRedirectUri } from '../auth/SignInPage.js'
import { useSession } from '../auth/session.js'
import { BAD } from '../shared/colours.js'
import { MutationAlert } from '../shared/MutationAlert.js'
import { QueryState } from '../shared/QueryState.js'

type Input = components['schemas']['SsoSettingsInput']
type Role = NonNullable<Input['defaultRole']>
const ROLES: Role[] = ['crew', 'office_employee', 'office_admin', 'admin']
const EMPTY: Input = { issuer: '', clientId: '', defaultRole: 'crew', enforce: false, redirectUris: [ssoRedirectUri()] }

/** The organization's OpenID Connect settings (docs/sso.md); the client secret is write-only. */
export function SsoTab() {
  const { api } = useSession()
  const queryClient = useQueryClient()
  const current = useQuery({
    queryKey: ['sso'],
    // 404 means "not configured": an empty form, not an error.
    queryFn: () =>
      unwrap(api.GET('/api/v1/shared/organization/sso')).catch((e) =>
        e instanceof ApiError && e.status === 404 ? null : Promise.reject(e),
      ),
  })
  const [form, setForm] = useState<Input>(EMPTY)
  const [secret, setSecret] = useState('')
  useEffect(() => {
    if (current.data) {
      const { hasClientSecret: _, ...settings } = current.data
      setForm(settings)
    }
  }, [current.data])
  const save = useMutation({
    mutationFn: () =>
      unwrap(api.PUT('/api/v1/shared/organization/sso', { body: { ...form, ...(secret ? { clientSecret: secret } : {}) } })),
    onSuccess: (data) => {
      setSecret('')
      queryClient.setQueryData(['sso'], data)
    },
  })
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/v1/shared/organization/sso')),
    onSuccess: () => {
      setForm(EMPTY)
      queryClient.setQueryData(['sso'], null)
    },
  })

  return (
    <QueryState query={current}>
      {(settings) => (
        <Stack maw={640}>
          <Text size="sm">
            {settings ? `Configured; client secret ${settings.hasClientSecret ? 'stored' : 'not set'}.` : 'Single sign-on is off.'}
          </Text>
          <TextInput label="Issuer" required value={form.issuer} onChange={(e) => setForm({ ...form, issuer: e.currentTarget.value })} />
          <TextInput
            label="Client id"
            required
            value={form.clientId}
            onChange={(e) => setForm({ ...form, clientId: e.currentTarget.value })}
          />
          <PasswordInput label="Client secret (leave blank to keep)" value={secret} onChange={(e) => setSecret(e.currentTarget.value)} />
          <TextInput
            label="Role claim"
            value={form.roleClaim ?? ''}
            onChange={(e) => setForm({ ...form, roleClaim: e.currentTarget.value || null })}
          />
          <Select
            label="Default role"
            data={ROLES}
            value={form.defaultRole ?? 'crew'}
            onChange={(v) => v && setForm({ ...form, defaultRole: v as Role })}
            allowDeselect={false}
          />
          <Textarea
            label="Redirect URIs (one a line)"
            description={`The console signs in through ${ssoRedirectUri()}`}
            autosize
            value={(form.redirectUris ?? []).join('\n')}
            onChange={(e) => setForm({ ...form, redirectUris: e.currentTarget.value.split('\n').filter((l) => l.trim()) })}
          />
          <Switch
            label="Enforce single sign-on (no password logins)"
            checked={form.enforce ?? false}
            onChange={(e) => setForm({ ...form, enforce: e.currentTarget.checked })}
          />
          <Group>
            <Button onClick={() => save.mutate()} loading={save.isPending}>
              Save single sign-on
            </Button>
            {settings && (
              <Button color={BAD} variant="outline" onClick={() => remove.mutate()} loading={remove.isPending}>
                Turn off
              </Button>
            )}
          </Group>
          <MutationAlert mutation={save} />
          <MutationAlert mutation={remove} saved="Single sign-on is off." />
        </Stack>
      )}
    </QueryState>
  )
}
