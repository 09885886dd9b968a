import { Group, Select, Stack, TextInput } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { components } from '../../../client/index.js'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { DataTable } from '../shared/DataTable.js'
import { labelOf, recordLabel } from '../shared/labels.js'
import { LoadMore } from '../shared/LoadMore.js'
import { PersonLink } from '../shared/PersonLink.js'
import { QueryState } from '../shared/QueryState.js'

type EventType = components['schemas']['Event']['type']

// The types an office looks for most (the service filters on one exact type); the table shows every type.
const TYPES: EventType[] = [
  'verification.submitted',
  'verification.verified',
  'verification.rejected',
  'verification.reopened',
  'identity_document.created',
  'identity_document.updated',
  'certificate.created',
  'certificate.updated',
  'assignment.created',
  'assignment.updated',
  'assignment.courses_assigned',
  'assignment.courses_removed',
  'user.created',
  'user.updated',
  'user.suspended',
  'organization.updated',
  'requirements.updated',
  'auth.login_failed',
  'auth.throttled',
]

// Types whose prefix and verb do not read as a sentence by themselves.
const EVENT_WORDS: Record<string, string> = {
  'verification.submitted': 'Review: sent for review',
  'verification.verified': 'Review: verified',
  'verification.rejected': 'Review: rejected',
  'verification.reopened': 'Review: reopened',
  'auth.login_failed': 'Sign-in failed',
  'auth.throttled': 'Sign-in refused (too many attempts)',
}

/** An event type in words: "assignment.courses_assigned" → "Assignment: courses assigned". */
function eventWords(type: string): string {
  const [prefix = '', verb = ''] = type.split('.')
  return EVENT_WORDS[type] ?? `${labelOf(prefix)}: ${verb.replaceAll('_', ' ')}`
}

/** A person of the organization, picked by typing their name. */
function PersonPicker(props: { label: string; placeholder: string; value: string | null; onChange: (id: string | null) => void }) {
  const { api } = useSession()
  const [typed, setTyped] = useState('')
  const [search] = useDebouncedValue(typed.trim(), 250)
  const people = useQuery({
    queryKey: ['roster', 'everyone', search],
    queryFn: () => unwrap(api.GET('/api/v1/crew/roster', { params: { query: { limit: 20, search: search || undefined } } })),
  })
  return (
    <Select
      label={props.label}
      placeholder={props.placeholder}
      data={(people.data?.items ?? []).map((p) => ({ value: p.id, label: `${p.firstName} ${p.lastName}` }))}
      value={props.value}
      onChange={props.onChange}
      searchable
      searchValue={typed}
      onSearchChange={setTyped}
      filter={({ options }) => options}
      clearable
    />
  )
}

/** The organization's audit trail, newest first, filtered by type, who acted, whom it concerns, record name and dates. */
export function AuditTab() {
  const { api } = useSession()
  const [type, setType] = useState<string | null>(null)
  const [targetName, setTargetName] = useState('')
  const [actorId, setActorId] = useState<string | null>(null)
  const [personId, setPersonId] = useState<string | null>(null)
  const [from, setFrom] = useState('')
  const [to, setTo] = useState('')
  const [target] = useDebouncedValue(targetName.trim(), 300)
  const events = useInfiniteQuery({
    queryKey: ['audit-events', type, target, actorId, personId, from, to],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/api/v1/shared/audit-events', {
          params: {
            query: {
              limit: 50,
              cursor: pageParam,
              type: type ?? undefined,
              target_name: target || undefined,
              actor_id: actorId ?? undefined,
              person_id: personId ?? undefined,
              from: from ? `${from}T00:00:00Z` : undefined,
              to: to ? `${to}T23:59:59Z` : undefined,
            },
          },
        }),
      ),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  })

  return (
    <Stack>
      <Group align="end">
        <Select
          label="Type"
          placeholder="Any"
          data={TYPES.map((t) => ({ value: t, label: eventWords(t) }))}
          value={type}
          onChange={setType}
          clearable
          searchable
        />
        <PersonPicker label="By" placeholder="Anyone (type a name)" value={actorId} onChange={setActorId} />
        <PersonPicker label="Person" placeholder="Anyone (type a name)" value={personId} onChange={setPersonId} />
        <TextInput
          label="Record"
          description="A ship's or course's name, a record's number"
          value={targetName}
          onChange={(e) => setTargetName(e.currentTarget.value)}
        />
        <TextInput label="From" type="date" value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
        <TextInput label="To" type="date" value={to} onChange={(e) => setTo(e.currentTarget.value)} />
      </Group>
      <QueryState query={events}>
        {(data) => (
          <DataTable
            caption="Audit events"
            rows={data.pages.flatMap((p) => p.items)}
            rowKey={(e) => e.id}
            columns={[
              { header: 'When', cell: (e) => e.occurredAt.slice(0, 19).replace('T', ' ') },
              { header: 'Event', cell: (e) => <span title={e.type}>{eventWords(e.type)}</span> },
              {
                header: 'By',
                cell: (e) => (e.actor ? <PersonLink userId={e.actor.userId} name={e.actorName ?? labelOf(e.actor.role)} /> : 'The service'),
              },
              { header: 'Person', cell: (e) => (e.personId ? <PersonLink userId={e.personId} name={e.personName ?? ''} /> : '—') },
              { header: 'Record', cell: (e) => recordLabel(e.target.type, e.targetKind, e.targetName) },
              { header: 'Request', cell: (e) => e.requestId ?? '—' },
            ]}
          />
        )}
      </QueryState>
      <LoadMore query={events} />
    </Stack>
  )
}
