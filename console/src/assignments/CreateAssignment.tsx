import { Alert, Button, Card, Group, Select, Text, TextInput } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { useMutation, useQuery } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { GOOD } from '../shared/colours.js'
import { errorText } from '../shared/errors.js'

/** Assigns one person to a ship in a role. */
export function CreateAssignment({ shipOptions, onCreated }: { shipOptions: { value: string; label: string }[]; onCreated: () => void }) {
  const { api } = useSession()
  const [personSearch, setPersonSearch] = useState('')
  const [debounced] = useDebouncedValue(personSearch.trim(), 250)
  const [userId, setUserId] = useState<string | null>(null)
  const [shipId, setShipId] = useState<string | null>(null)
  const [role, setRole] = useState('')
  const [startDate, setStartDate] = useState('')
  const [endDate, setEndDate] = useState('')
  const people = useQuery({
    queryKey: ['roster', 'crew', debounced],
    queryFn: () =>
      unwrap(api.GET('/api/v1/crew/roster', { params: { query: { limit: 20, role: 'crew', search: debounced || undefined } } })),
  })
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/assignments/', {
          body: { userId: userId ?? '', shipId: shipId ?? '', role, startDate: startDate || null, endDate: endDate || null },
        }),
      ),
    onSuccess: onCreated,
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    create.mutate()
  }
  const personOptions = (people.data?.items ?? []).map((p) => ({ value: p.id, label: `${p.firstName} ${p.lastName} (${p.email})` }))

  return (
    <Card withBorder component="form" onSubmit={submit} aria-label="New assignment">
      <Text fw={700}>New assignment</Text>
      <Group align="end">
        <Select
          label="Person"
          data={personOptions}
          value={userId}
          onChange={setUserId}
          searchable
          searchValue={personSearch}
          onSearchChange={setPersonSearch}
          filter={({ options }) => options}
          required
          miw={280}
        />
        <Select label="Ship" data={shipOptions} value={shipId} onChange={setShipId} searchable required />
        <TextInput label="Role" value={role} onChange={(e) => setRole(e.currentTarget.value)} required />
        <TextInput label="Start" type="date" value={startDate} onChange={(e) => setStartDate(e.currentTarget.value)} />
        <TextInput label="End" type="date" value={endDate} onChange={(e) => setEndDate(e.currentTarget.value)} />
        <Button type="submit" loading={create.isPending} disabled={!userId || !shipId || !role.trim()}>
          Assign
        </Button>
      </Group>
      {create.isError && (
        <Alert color="red" role="alert" mt="xs">
          {errorText(create.error)}
        </Alert>
      )}
      {create.isSuccess && (
        <Text c={GOOD} mt="xs">
          Assigned {create.data.userName} to {create.data.shipName}.
        </Text>
      )}
    </Card>
  )
}
