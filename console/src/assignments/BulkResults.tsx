import { Stack, Text } from '@mantine/core'
import type { components } from '../../../client/index.js'
import { DataTable } from '../shared/DataTable.js'
import { StatusBadge } from '../shared/StatusBadge.js'
import type { BulkOutcome } from './bulk-outcome.js'

type Assignment = components['schemas']['Assignment']

/** One line per assignment the action was asked to change: what failed and why. */
export function BulkResults({ title, outcomes, known }: { title: string; outcomes: BulkOutcome[]; known: Map<string, Assignment> }) {
  const failed = outcomes.filter((o) => !o.ok).length
  return (
    <Stack gap="xs" aria-live="polite" data-testid="bulk-results">
      <Text fw={700}>
        {title}: {outcomes.length - failed} changed, {failed} failed
      </Text>
      <DataTable
        caption="Result per assignment"
        rows={outcomes}
        rowKey={(o) => o.id}
        columns={[
          {
            header: 'Assignment',
            cell: (o) => {
              const a = known.get(o.id)
              return a ? `${a.userName} · ${a.shipName} · ${a.role}` : o.id
            },
          },
          { header: 'Result', cell: (o) => <StatusBadge status={o.ok ? 'updated' : 'failed'} /> },
          { header: 'Why', cell: (o) => o.reason ?? '—' },
        ]}
      />
    </Stack>
  )
}
