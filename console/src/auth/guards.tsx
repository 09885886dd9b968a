import { Alert, Center, Loader } from '@mantine/core'
import { Navigate, Outlet } from 'react-router'
import { useSessionState } from './session.js'
import type { Role } from './session-store.js'

/** Signed-out visitors go to the sign-in screen (which says why when the session expired). */
export function RequireSession() {
  const { session, restoring } = useSessionState()
  if (restoring) {
    return (
      <Center mih="100vh">
        <Loader aria-label="Loading" />
      </Center>
    )
  }
  return session ? <Outlet /> : <Navigate to="/sign-in" replace />
}

/** Screens outside the role's reach say so instead of rendering; the API refuses the calls anyway. */
export function RequireRole({ roles }: { roles: Role[] }) {
  const { session } = useSessionState()
  if (session && roles.includes(session.role)) return <Outlet />
  return (
    <Alert color="red" title="Not available" role="alert">
      Your role does not give access to this screen.
    </Alert>
  )
}
