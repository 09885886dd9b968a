import { Alert, Grid, Kbd, NavLink, Stack, Text, Title } from '@mantine/core'
import { useHotkeys } from '@mantine/hooks'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { recordLabel } from '../shared/labels.js'
import { QueryState } from '../shared/QueryState.js'
import { ReviewItemPanel } from './ReviewItemPanel.js'
import { loadReviewTarget, type ReviewItem } from './review-target.js'

const QUEUE_KEY = ['review-queue']

export default function ReviewPage() {
  const { api } = useSession()
  const queryClient = useQueryClient()
  const queue = useQuery({
    queryKey: QUEUE_KEY,
    // The service queues pending items oldest submission first.
    queryFn: () => unwrap(api.GET('/api/v1/crew/verifications', { params: { query: { status: 'pending', limit: 100 } } })),
  })
  const items = queue.data?.items ?? []
  const [selectedId, setSelectedId] = useState<string | null>(null)
  const index = Math.max(
    0,
    items.findIndex((item) => item.targetId === selectedId),
  )
  const selected = items[index]

  // The next item's record is fetched ahead, so it shows at once after a decision.
  const next = items[index + 1]
  useEffect(() => {
    if (next) void queryClient.prefetchQuery({ queryKey: ['review-target', next.targetId], queryFn: () => loadReviewTarget(api, next) })
  }, [next, api, queryClient])

  const move = (step: number) => {
    const target = items[index + step]
    if (target) setSelectedId(target.targetId)
  }
  useHotkeys([
    ['j', () => move(1)],
    ['ArrowDown', () => move(1)],
    ['k', () => move(-1)],
    ['ArrowUp', () => move(-1)],
  ])

  /** Drops the decided item from the list at once and moves to the one after it. */
  const decided = (item: ReviewItem) => {
    const after = items[index + 1] ?? items[index - 1]
    setSelectedId(after?.targetId ?? null)
    queryClient.setQueryData(QUEUE_KEY, (page: typeof queue.data) =>
      page ? { ...page, items: page.items.filter((i) => i.targetId !== item.targetId) } : page,
    )
    void queryClient.invalidateQueries({ queryKey: QUEUE_KEY })
  }

  return (
    <Stack>
      <Title order={1} size="h2">
        Review queue
      </Title>
      <Text size="sm" c="dimmed">
        <Kbd>V</Kbd> verify · <Kbd>R</Kbd> reject · <Kbd>J</Kbd>/<Kbd>K</Kbd> next/previous
      </Text>
      <QueryState query={queue}>
        {() =>
          selected ? (
            <Grid>
              <Grid.Col span={{ base: 12, md: 3 }}>
                <nav aria-label="Pending items">
                  {items.map((item) => (
                    <NavLink
                      // A button, so Tab reaches every item as well as J/K do.
                      component="button"
                      key={item.targetId}
                      // Both lines inherit the item's colour, which keeps its contrast when the item is active.
                      label={
                        <>
                          <Text size="sm">{recordLabel(item.targetType, item.recordType, item.recordNumber)}</Text>
                          <Text size="xs">
                            {item.userName} · {item.submittedAt?.slice(0, 16).replace('T', ' ') ?? 'not submitted'}
                          </Text>
                        </>
                      }
                      variant="filled"
                      active={item.targetId === selected.targetId}
                      onClick={() => setSelectedId(item.targetId)}
                      data-testid="queue-item"
                      data-target-id={item.targetId}
                    />
                  ))}
                </nav>
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 9 }}>
                <ReviewItemPanel key={selected.targetId} item={selected} onDecided={decided} />
              </Grid.Col>
            </Grid>
          ) : (
            <Alert color="green">Nothing is waiting for review.</Alert>
          )
        }
      </QueryState>
    </Stack>
  )
}
