import { Button } from '@mantine/core'
import type { UseInfiniteQueryResult } from '@tanstack/react-query'

/** The next page of a cursor-paged list, while the service says there is one. */
export function LoadMore({ query }: { query: UseInfiniteQueryResult }) {
  if (!query.hasNextPage) return null
  return (
    <Button variant="default" onClick={() => query.fetchNextPage()} loading={query.isFetchingNextPage}>
      Load more
    </Button>
  )
}
