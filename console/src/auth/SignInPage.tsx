import { Alert, Button, Card, Center, Divider, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core'
import { type FormEvent, useState } from 'react'
import { Navigate } from 'react-router'
import { ApiError } from '../api.js'
import { errorText } from '../shared/errors.js'
import { homeOf } from './roles.js'
import { useSessionState } from './session.js'

/** Where the service's browser sign-in hands the token back (the organization lists it in its SSO redirect URIs). */
export function ssoRedirectUri(): string {
  return `${window.location.origin}/console/sso`
}

function ssoLoginUrl(domain: string): string {
  const query = new URLSearchParams({ redirect_uri: ssoRedirectUri() })
  return `/api/v1/auth/sso/${encodeURIComponent(domain)}/login?${query}`
}

/** A lockout (429) says when signing in can work again, from `Retry-After`; any other refusal in the service's words. */
function signInError(error: unknown): string {
  if (!(error instanceof ApiError) || error.status !== 429 || !error.retryAfterSeconds) return errorText(error)
  const minutes = Math.ceil(error.retryAfterSeconds / 60)
  const at = new Date(Date.now() + error.retryAfterSeconds * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
  return `Too many failed sign-ins. Try again in ${minutes === 1 ? 'a minute' : `${minutes} minutes`}, at ${at}.`
}

export function SignInPage() {
  const { session, notice, signInWithPassword } = useSessionState()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  if (session) return <Navigate to={homeOf(session.role)} replace />

  async function submit(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      await signInWithPassword(email, password)
    } catch (e) {
      setError(signInError(e))
    } finally {
      setBusy(false)
    }
  }

  const domain = email.includes('@') ? email.split('@')[1] : ''
  return (
    <Center mih="100vh" component="main">
      <Card withBorder shadow="sm" padding="xl" w={380}>
        <form onSubmit={submit}>
          <Stack>
            <Title order={1} size="h2">
              Seaworthy console
            </Title>
            {notice && <Alert color="yellow">{notice}</Alert>}
            {error && (
              <Alert color="red" role="alert">
                {error}
              </Alert>
            )}
            <TextInput
              label="E-mail"
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              autoFocus
            />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
            />
            <Button type="submit" loading={busy}>
              Sign in
            </Button>
            <Divider label="or" />
            <Text size="sm">Organizations with single sign-on: enter your e-mail, then</Text>
            <Button variant="default" disabled={!domain} onClick={() => window.location.assign(ssoLoginUrl(domain ?? ''))}>
              Sign in with single sign-on
            </Button>
          </Stack>
        </form>
      </Card>
    </Center>
  )
}
