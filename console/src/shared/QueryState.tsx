import { Alert } from '@mantine/core'
import type { UseQueryResult } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { errorText } from './errors.js'
import { Loading } from './Loading.js'

/** Renders a query's loading and error states, and its data through `children` once there. */
export function QueryState<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  // No link and no copy on the device (DECISIONS §16): the read waits for the link, which a spinner would not say.
  if (query.isPending && query.fetchStatus === 'paused') {
    return (
      <Alert color="gray" role="status">
        Not kept on this device yet: shown when the link returns.
      </Alert>
    )
  }
  if (query.isPending) return <Loading />
  if (query.isError) {
    return (
      <Alert color="red" role="alert">
        {errorText(query.error)}
      </Alert>
    )
  }
  return <>{children(query.data)}</>
}
