import { Alert, Anchor, Center, Loader, Stack } from '@mantine/core'
import { useEffect, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { errorText } from '../shared/errors.js'
import { useSessionState } from './session.js'

/** The service's browser sign-in returns here with `#access_token=…&refresh_token=…&expires_in=…` or `#error=…`. */
export function SsoCallbackPage() {
  const { begin } = useSessionState()
  const navigate = useNavigate()
  const [error, setError] = useState<string | null>(null)
  // Read once: the token must not stay in the address bar or the history, so the fragment is dropped below.
  const [fragment] = useState(() => new URLSearchParams(window.location.hash.slice(1)))

  useEffect(() => {
    window.history.replaceState(null, '', window.location.pathname)
    const token = fragment.get('access_token')
    if (!token) return setError(`Single sign-on failed (${fragment.get('error') ?? 'no token'}).`)
    const answer = {
      access_token: token,
      token_type: 'bearer' as const,
      expires_in: Number(fragment.get('expires_in') ?? 3600),
      refresh_token: fragment.get('refresh_token') ?? '',
    }
    begin(answer)
      .then(() => navigate('/', { replace: true }))
      .catch((e) => setError(errorText(e)))
  }, [begin, navigate, fragment])

  return (
    <Center mih="100vh" component="main">
      {error ? (
        <Stack>
          <Alert color="red" role="alert">
            {error}
          </Alert>
          <Anchor component={Link} to="/sign-in">
            Back to sign-in
          </Anchor>
        </Stack>
      ) : (
        <Loader aria-label="Signing in" />
      )}
    </Center>
  )
}
