import { Badge, Group, SimpleGrid, Stack, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { unwrap } from '../api.js'
import { GOOD, NEUTRAL, WARN } from '../shared/colours.js'
import { useSession } from '../auth/session.js'
import { DataTable } from '../shared/DataTable.js'
import { labelOf } from '../shared/labels.js'
import { QueryState } from '../shared/QueryState.js'

const dash = (value: string | null | undefined) => value || '—'

/** A person's sea service (DECISIONS §14): totals, by role and ship type, periods with overlaps marked, revalidation. */
export function SeaServiceSummary({ userId }: { userId: string }) {
  const { api } = useSession()
  const summary = useQuery({
    queryKey: ['sea-service', userId],
    queryFn: () => unwrap(api.GET('/api/v1/crew/users/{user_id}/sea-service', { params: { path: { user_id: userId } } })),
  })
  return (
    <QueryState query={summary}>
      {(s) => {
        const overlapping = new Set(s.overlaps.flatMap((o) => o.ids))
        return (
          <Stack gap="sm">
            <Group>
              <Text>
                <strong>{s.totalDays}</strong> days in total · {s.lastFiveYearsDays} in the last five years · {s.lastSixMonthsDays} in the
                last six months
              </Text>
              <Badge color={s.revalidation.eligible ? GOOD : WARN} variant="filled">
                {s.revalidation.eligible ? 'Revalidation: eligible' : `Revalidation: ${s.revalidation.daysNeeded} days needed`}
              </Badge>
            </Group>
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              <DataTable
                caption="Days by role"
                rows={s.byRole}
                rowKey={(r) => r.role}
                columns={[
                  { header: 'Role', cell: (r) => r.role },
                  { header: 'Days', cell: (r) => r.days },
                ]}
              />
              <DataTable
                caption="Days by ship type"
                rows={s.byShipType}
                rowKey={(r) => r.shipType ?? ''}
                columns={[
                  { header: 'Ship type', cell: (r) => (r.shipType ? labelOf(r.shipType) : 'Not stated') },
                  { header: 'Days', cell: (r) => r.days },
                ]}
              />
            </SimpleGrid>
            <DataTable
              caption="Sea-service periods"
              rows={s.periods}
              rowKey={(p) => p.id}
              columns={[
                { header: 'Role', cell: (p) => p.role },
                { header: 'Ship', cell: (p) => dash(p.shipName) },
                { header: 'Ship type', cell: (p) => (p.shipType ? labelOf(p.shipType) : '—') },
                { header: 'Period', cell: (p) => `${p.startDate} – ${dash(p.endDate)}` },
                { header: 'Days', cell: (p) => p.days },
                { header: 'Counted', cell: (p) => p.countedDays },
                {
                  header: 'Notes',
                  cell: (p) => (
                    <Group gap={4}>
                      {p.source === 'assignment' && (
                        <Badge color={NEUTRAL} variant="filled">
                          From contract
                        </Badge>
                      )}
                      {overlapping.has(p.id) && (
                        <Badge color={WARN} variant="filled">
                          Overlaps
                        </Badge>
                      )}
                    </Group>
                  ),
                },
              ]}
            />
          </Stack>
        )
      }}
    </QueryState>
  )
}
