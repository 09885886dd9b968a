import { useQuery } from '@tanstack/react-query'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'

/**
 * The permission names the console acts on, as the service reports them for the caller's role
 * (`GET /api/v1/shared/users/me/session`, from the server's one table in src/lib/access.ts).
 */
export type Permission =
  | 'users:write'
  | 'ships:write'
  | 'crew:write'
  | 'crew:review'
  | 'learn:courses:write'
  | 'learn:assignments:write'
  | 'learn:assignments:bulk'
  | 'learn:analytics'
  | 'learn:xapi:credentials'
  | 'learn:xapi:statements:read'
  | 'organization:write'
  | 'requirements:write'
  | 'sso:manage'
  | 'webhooks:manage'
  | 'audit:read'

/**
 * Whether the caller may use a form, button or tab. Until the session's permissions arrive nothing is
 * offered, so no role is ever shown a control that ends in 403.
 */
export function useCan(): (permission: Permission) => boolean {
  const { api, role } = useSession()
  const session = useQuery({
    queryKey: ['session-permissions', role],
    queryFn: () => unwrap(api.GET('/api/v1/shared/users/me/session')),
    staleTime: Number.POSITIVE_INFINITY,
  })
  const held = session.data?.permissions ?? []
  return (permission) => held.includes(permission)
}
