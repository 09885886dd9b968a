import type { SeaworthyClient } from '../../../client/index.js'
import { unwrap } from '../api.js'

/** The caller's own registrations with course and ship names (crew see only theirs). */
export const myRegistrationsQuery = (api: SeaworthyClient) => ({
  queryKey: ['my-registrations'],
  queryFn: () => unwrap(api.GET('/api/v1/learn/registrations', { params: { query: { expand: true, limit: 1000 } } })),
})

/** The caller with their current assignments, read afresh (the session's copy is from signing in). */
export const meQuery = (api: SeaworthyClient) => ({
  queryKey: ['me'],
  queryFn: () => unwrap(api.GET('/api/v1/users/me')),
})
