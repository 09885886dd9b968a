import { Autocomplete, Button, Card, Code, Group, Stack, Text, TextInput } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { useInfiniteQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useSession } from '../../auth/session.js'
import { DataTable } from '../../shared/DataTable.js'
import { LoadMore } from '../../shared/LoadMore.js'
import { QueryState } from '../../shared/QueryState.js'
import { ScrollRegion } from '../../shared/ScrollRegion.js'
import { when } from '../webhooks/DeliveryLog.js'
import { display, fetchStatements, type Statement, type StatementFilters, statementsUrl } from './lrs.js'
import { PersonFilter } from './PersonFilter.js'

// The verbs cmi5 and most course tools send (any other IRI may be typed in).
const VERBS = [
  'http://adlnet.gov/expapi/verbs/launched',
  'http://adlnet.gov/expapi/verbs/initialized',
  'http://adlnet.gov/expapi/verbs/completed',
  'http://adlnet.gov/expapi/verbs/passed',
  'http://adlnet.gov/expapi/verbs/failed',
  'http://adlnet.gov/expapi/verbs/terminated',
  'http://adlnet.gov/expapi/verbs/abandoned',
  'http://adlnet.gov/expapi/verbs/attempted',
  'http://adlnet.gov/expapi/verbs/experienced',
  'http://adlnet.gov/expapi/verbs/answered',
  'https://w3id.org/xapi/adl/verbs/waived',
  'https://w3id.org/xapi/adl/verbs/satisfied',
  'http://adlnet.gov/expapi/verbs/voided',
]

const NO_FILTERS: StatementFilters = { personId: '', activity: '', verb: '', registration: '', since: '', until: '' }

const actorLabel = (actor: Statement['actor']) => actor.name ?? actor.account?.name ?? actor.mbox ?? actor.objectType ?? '—'

/** The organization's learning records (admins and office admins): filtered, newest first, each one's JSON on demand. */
export function StatementBrowser() {
  const { fetch } = useSession()
  const [filters, setFilters] = useState(NO_FILTERS)
  const [typed] = useDebouncedValue(filters, 300)
  const [open, setOpen] = useState<Statement | null>(null)
  const set = (field: keyof StatementFilters) => (value: string) => setFilters((f) => ({ ...f, [field]: value }))
  const statements = useInfiniteQuery({
    queryKey: ['xapi-statements', typed],
    initialPageParam: statementsUrl(typed),
    queryFn: ({ pageParam }) => fetchStatements(fetch, pageParam),
    getNextPageParam: (page) => page.more || undefined,
  })

  return (
    <Stack>
      <Group align="end">
        <PersonFilter value={filters.personId || null} onChange={(id) => set('personId')(id ?? '')} />
        <TextInput label="Course or activity id" value={filters.activity} onChange={(e) => set('activity')(e.currentTarget.value)} />
        <Autocomplete label="Verb" placeholder="Any" data={VERBS} value={filters.verb} onChange={set('verb')} miw={280} />
        <TextInput label="Registration" value={filters.registration} onChange={(e) => set('registration')(e.currentTarget.value)} />
        <TextInput label="Since" type="date" value={filters.since} onChange={(e) => set('since')(e.currentTarget.value)} />
        <TextInput label="Until" type="date" value={filters.until} onChange={(e) => set('until')(e.currentTarget.value)} />
      </Group>
      <QueryState query={statements}>
        {(data) => (
          <DataTable
            caption="Statements"
            rows={data.pages.flatMap((p) => p.statements)}
            rowKey={(s) => s.id}
            columns={[
              { header: 'Stored', cell: (s) => when(s.stored) },
              { header: 'Actor', cell: (s) => actorLabel(s.actor) },
              { header: 'Verb', cell: (s) => display(s.verb.display, s.verb.id) },
              { header: 'Object', cell: (s) => display(s.object.definition?.name, s.object.id ?? s.object.objectType ?? '—') },
              { header: 'Registration', cell: (s) => s.context?.registration ?? '—' },
              {
                header: 'JSON',
                cell: (s) => (
                  <Button
                    size="xs"
                    variant={open?.id === s.id ? 'filled' : 'default'}
                    aria-label={`Show the JSON of statement ${s.id}`}
                    aria-pressed={open?.id === s.id}
                    onClick={() => setOpen(open?.id === s.id ? null : s)}
                  >
                    JSON
                  </Button>
                ),
              },
            ]}
          />
        )}
      </QueryState>
      <LoadMore query={statements} />
      {open && (
        <Card withBorder aria-label={`Statement ${open.id}`} component="section">
          <Group justify="space-between" mb="xs">
            <Text fw={700}>Statement {open.id}</Text>
            <Button size="xs" variant="default" onClick={() => setOpen(null)}>
              Close
            </Button>
          </Group>
          <ScrollRegion label={`JSON of statement ${open.id}`}>
            <Code block data-testid="statement-json">
              {JSON.stringify(open, null, 2)}
            </Code>
          </ScrollRegion>
        </Card>
      )}
    </Stack>
  )
}
