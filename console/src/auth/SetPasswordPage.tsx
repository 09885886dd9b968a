import { Alert, Anchor, Button, Card, Center, Stack, Text, Title } from '@mantine/core'
import { type FormEvent, useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { ApiError, publicClient, unwrap } from '../api.js'
import { errorText } from '../shared/errors.js'
import { NewPasswordFields } from './NewPasswordFields.js'
import { passwordProblem } from './password-rules.js'
import { useSessionState } from './session.js'

const PAGES = {
  invite: {
    title: 'Welcome to Seaworthy',
    intro: 'Choose the password you will sign in with.',
    gone: 'This invitation has expired or was already used. Ask your administrator for a new one.',
    path: '/api/v1/auth/invitations/{token}/accept',
  },
  reset: {
    title: 'Choose a new password',
    intro: 'Your administrator has let you choose a new password. Other sign-ins end when you save it.',
    gone: 'This password reset link has expired or was already used. Ask your administrator for a new one.',
    path: '/api/v1/auth/password-resets/{token}/accept',
  },
} as const

/** `/console/invite/<token>` and `/console/reset/<token>`: set a password, then signed in (DECISIONS §15). */
export function SetPasswordPage({ kind }: { kind: keyof typeof PAGES }) {
  const page = PAGES[kind]
  const { token = '' } = useParams()
  const { begin } = useSessionState()
  const navigate = useNavigate()
  const [password, setPassword] = useState('')
  const [repeated, setRepeated] = useState('')
  const [fieldError, setFieldError] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    const problem = passwordProblem(password, repeated)
    setFieldError(problem)
    setError(null)
    if (problem) return
    setBusy(true)
    try {
      await begin(await unwrap(publicClient.POST(page.path, { params: { path: { token } }, body: { password } })))
      navigate('/', { replace: true })
    } catch (e) {
      setError(e instanceof ApiError && e.status === 404 ? page.gone : errorText(e))
      setBusy(false)
    }
  }

  return (
    <Center mih="100vh" component="main" p="md">
      <Card withBorder shadow="sm" padding="xl" w={420} maw="100%">
        <form onSubmit={submit}>
          <Stack>
            <Title order={1} size="h2">
              {page.title}
            </Title>
            <Text size="sm">{page.intro}</Text>
            {error && (
              <Alert color="red" role="alert">
                {error}
              </Alert>
            )}
            <NewPasswordFields
              password={password}
              repeated={repeated}
              onPassword={setPassword}
              onRepeated={setRepeated}
              error={fieldError}
              repeatLabel="Repeat the password"
              autoFocus
            />
            <Button type="submit" loading={busy}>
              Save password and sign in
            </Button>
            <Anchor component={Link} to="/sign-in" size="sm">
              Back to sign-in
            </Anchor>
          </Stack>
        </form>
      </Card>
    </Center>
  )
}

export const InvitePage = () => <SetPasswordPage kind="invite" />
export const ResetPage = () => <SetPasswordPage kind="reset" />
