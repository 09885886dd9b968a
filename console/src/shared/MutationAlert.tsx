import { Alert } from '@mantine/core'
import type { UseMutationResult } from '@tanstack/react-query'
import { errorText } from './errors.js'

/** The outcome of a save: the service's error, or a short confirmation. */
export function MutationAlert({ mutation, saved = 'Saved.' }: { mutation: UseMutationResult<any, Error, any>; saved?: string }) {
  if (mutation.isError) {
    return (
      <Alert color="red" role="alert">
        {errorText(mutation.error)}
      </Alert>
    )
  }
  return mutation.isSuccess ? <Alert color="green">{saved}</Alert> : null
}
