import { Alert, Button, Card, Code, Group, MultiSelect, Stack, Text, TextInput } from '@mantine/core'
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import type { components } from '../../../../client/index.js'
import { unwrap } from '../../api.js'
import { useSession } from '../../auth/session.js'
import { ConfirmButton } from '../../shared/ConfirmButton.js'
import { DataTable } from '../../shared/DataTable.js'
import { errorText } from '../../shared/errors.js'
import { LoadMore } from '../../shared/LoadMore.js'
import { QueryState } from '../../shared/QueryState.js'
import { SecretShownOnce } from '../../shared/SecretShownOnce.js'
import { when } from '../webhooks/DeliveryLog.js'

type Scope = components['schemas']['XapiCredential']['scopes'][number]

// xAPI's scope names, as the credentials API takes them (DECISIONS §13.1).
const SCOPES: { value: Scope; label: string }[] = [
  { value: 'all', label: 'all — everything' },
  { value: 'all/read', label: 'all/read — read everything' },
  { value: 'statements/write', label: 'statements/write' },
  { value: 'statements/read', label: 'statements/read' },
  { value: 'statements/read/mine', label: 'statements/read/mine — only what it wrote' },
  { value: 'state', label: 'state — state documents' },
  { value: 'define', label: 'define — activity definitions' },
  { value: 'profile', label: 'profile — profile documents' },
]

/** The LRS's credentials (admins only): create one and see its secret once, list them, delete one. */
export function CredentialsPanel() {
  const { api } = useSession()
  const queryClient = useQueryClient()
  const [name, setName] = useState('')
  const [scopes, setScopes] = useState<string[]>(['all'])
  const [created, setCreated] = useState<{ key: string; secret: string } | null>(null)
  const credentials = useInfiniteQuery({
    queryKey: ['xapi-credentials'],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => unwrap(api.GET('/api/v1/learn/xapi/credentials', { params: { query: { limit: 50, cursor: pageParam } } })),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  })
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/learn/xapi/credentials', { body: { name: name.trim(), scopes: scopes as Scope[] } })),
    onSuccess: (credential) => {
      setCreated({ key: credential.key, secret: credential.secret })
      setName('')
      setScopes(['all'])
      queryClient.invalidateQueries({ queryKey: ['xapi-credentials'] })
    },
  })
  const remove = useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/api/v1/learn/xapi/credentials/{credential_id}', { params: { path: { credential_id: id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['xapi-credentials'] }),
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setCreated(null)
    create.mutate()
  }

  return (
    <Stack>
      <Card withBorder component="form" onSubmit={submit} aria-label="New LRS credential">
        <Text fw={700}>New LRS credential</Text>
        <Group align="end">
          <TextInput label="Name" placeholder="Bridge simulator" value={name} onChange={(e) => setName(e.currentTarget.value)} required />
          <MultiSelect label="Scopes" data={SCOPES} value={scopes} onChange={setScopes} required miw={260} />
          <Button type="submit" loading={create.isPending} disabled={!name.trim() || scopes.length === 0}>
            Create credential
          </Button>
        </Group>
        {create.isError && (
          <Alert color="red" role="alert" mt="xs">
            {errorText(create.error)}
          </Alert>
        )}
      </Card>
      {created && (
        <SecretShownOnce
          title="LRS secret, shown only once"
          note={
            <>
              The client sends <Code>{created.key}</Code> as the HTTP Basic user name and this secret as the password. The service keeps
              only a hash of it: if it is lost, create a new credential and delete this one.
            </>
          }
          secret={created.secret}
          testId="xapi-secret"
          onDone={() => setCreated(null)}
        />
      )}
      {remove.isError && (
        <Alert color="red" role="alert">
          {errorText(remove.error)}
        </Alert>
      )}
      <QueryState query={credentials}>
        {(data) => (
          <DataTable
            caption="LRS credentials"
            rows={data.pages.flatMap((p) => p.items)}
            rowKey={(c) => c.id}
            columns={[
              { header: 'Name', cell: (c) => c.name },
              { header: 'Key', cell: (c) => <Code>{c.key}</Code> },
              { header: 'Scopes', cell: (c) => c.scopes.join(', ') },
              { header: 'Created', cell: (c) => when(c.createdAt) },
              {
                header: 'Action',
                cell: (c) => (
                  <ConfirmButton
                    label="Delete"
                    question={`Delete ${c.name}? Clients using it are refused at once.`}
                    loading={remove.isPending && remove.variables === c.id}
                    onConfirm={() => remove.mutate(c.id)}
                  />
                ),
              },
            ]}
          />
        )}
      </QueryState>
      <LoadMore query={credentials} />
    </Stack>
  )
}
