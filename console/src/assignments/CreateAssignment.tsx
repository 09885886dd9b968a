import { Alert, Autocomplete, Button, Card, Group, Select, Text, TextInput } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { useMutation, useQuery } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { GOOD, WARN } from '../shared/colours.js'
import { fieldErrors, formLevelError } from '../shared/field-errors.js'
import { DUE_HELP, ROLE_HELP } from './assignment-help.js'
import { useOverlapping, useRoleSuggestions } from './role-options.js'
import { useShipOptions } from './ship-options.js'

const FIELDS = ['userId', 'shipId', 'role', 'startDate', 'dueDate', 'endDate']

/** Assigns one person to a ship in a role; from a profile the person is given. */
export function CreateAssignment({ userId: givenUser, onCreated }: { userId?: string; onCreated: () => void }) {
  const { api } = useSession()
  const shipOptions = useShipOptions()
  const [personSearch, setPersonSearch] = useState('')
  const [debounced] = useDebouncedValue(personSearch.trim(), 250)
  const [userId, setUserId] = useState<string | null>(givenUser ?? null)
  const [shipId, setShipId] = useState<string | null>(null)
  const [role, setRole] = useState('')
  const [dates, setDates] = useState({ startDate: '', dueDate: '', endDate: '' })
  const roles = useRoleSuggestions()
  const overlapping = useOverlapping(userId, dates.startDate, dates.endDate)
  const people = useQuery({
    queryKey: ['roster', 'crew', debounced],
    queryFn: () =>
      unwrap(api.GET('/api/v1/crew/roster', { params: { query: { limit: 20, role: 'crew', search: debounced || undefined } } })),
    enabled: !givenUser,
  })
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/assignments/', {
          body: {
            userId: userId ?? '',
            shipId: shipId ?? '',
            role: role.trim(),
            startDate: dates.startDate || null,
            dueDate: dates.dueDate || null,
            endDate: dates.endDate || null,
          },
        }),
      ),
    onSuccess: onCreated,
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    create.mutate()
  }
  const errors = fieldErrors(create.error)
  const general = formLevelError(create.error, FIELDS)
  const personOptions = (people.data?.items ?? []).map((p) => ({ value: p.id, label: `${p.firstName} ${p.lastName} (${p.email})` }))
  const dateInput = (name: keyof typeof dates, label: string, description?: string) => (
    <TextInput
      label={label}
      description={description}
      type="date"
      value={dates[name]}
      error={errors[name]}
      onChange={(e) => setDates({ ...dates, [name]: e.currentTarget.value })}
    />
  )

  return (
    <Card withBorder component="form" onSubmit={submit} aria-label="New assignment" noValidate>
      <Text fw={700}>New assignment</Text>
      <Group align="start" wrap="wrap">
        {!givenUser && (
          <Select
            label="Person"
            data={personOptions}
            value={userId}
            onChange={setUserId}
            searchable
            searchValue={personSearch}
            onSearchChange={setPersonSearch}
            filter={({ options }) => options}
            withAsterisk
            error={errors.userId}
            miw={260}
          />
        )}
        <Select label="Ship" data={shipOptions} value={shipId} onChange={setShipId} searchable withAsterisk error={errors.shipId} />
        <Autocomplete label="Role" description={ROLE_HELP} data={roles} value={role} onChange={setRole} withAsterisk error={errors.role} />
        {dateInput('startDate', 'Start')}
        {dateInput('dueDate', 'Due', DUE_HELP)}
        {dateInput('endDate', 'End')}
      </Group>
      {overlapping.length > 0 && !create.isSuccess && (
        <Alert color={WARN} title="Already booked on these dates" mt="xs" data-testid="overlap-warning">
          {overlapping
            .map((a) => `${a.shipName} as ${a.role}, ${a.startDate ?? 'no start date'} to ${a.endDate ?? 'no end date'}`)
            .join('; ')}
          . You can still assign; readiness will warn of the overlap.
        </Alert>
      )}
      <Group mt="sm">
        <Button type="submit" loading={create.isPending}>
          Assign
        </Button>
      </Group>
      {general && (
        <Alert color="red" role="alert" mt="xs">
          {general}
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
