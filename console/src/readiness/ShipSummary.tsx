import { Card, Group, SimpleGrid, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { BAD, GOOD } from '../shared/colours.js'
import { labelOf } from '../shared/labels.js'
import { QueryState } from '../shared/QueryState.js'

/** One ship on the date: how many of its crew are ready, and how many have each kind of problem. */
export function ShipSummary({ shipId, asOf }: { shipId: string; asOf: string }) {
  const { api } = useSession()
  const summary = useQuery({
    queryKey: ['ship-readiness', shipId, asOf],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/shared/ships/{ship_id}/readiness', { params: { path: { ship_id: shipId }, query: { as_of: asOf || undefined } } }),
      ),
  })
  return (
    <QueryState query={summary}>
      {(ship) => (
        <Card withBorder aria-label="Ship summary" component="section">
          <Group>
            <Text fw={700}>{ship.assignments} assigned</Text>
            <Text c={GOOD}>{ship.ready} ready</Text>
            <Text c={BAD}>{ship.notReady} not ready</Text>
          </Group>
          <SimpleGrid cols={{ base: 1, md: 2 }} mt="xs">
            {Object.entries(ship.byCode).map(([code, count]) => (
              <Text key={code} size="sm">
                {labelOf(code)}: {count}
              </Text>
            ))}
          </SimpleGrid>
        </Card>
      )}
    </QueryState>
  )
}
