import { Alert } from '@mantine/core'
import type { UseQueryResult } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { errorText } from './errors.js'
import { Loading } from './Loading.js'

/** Renders a query's loading and error states, and its data through `children` once there. */
export function QueryState<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
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
