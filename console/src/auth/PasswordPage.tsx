import { Alert, Button, Card, PasswordInput, Stack, Text, Title } from '@mantine/core'
import { type FormEvent, useState } from 'react'
import { ApiError, unwrap } from '../api.js'
import { errorText } from '../shared/errors.js'
import { NewPasswordFields } from './NewPasswordFields.js'
import { passwordProblem } from './password-rules.js'
import { useSession } from './session.js'

/** `/console/account/password`: every role changes their own password; their other sign-ins end. */
export default function PasswordPage() {
  const { api } = useSession()
  const [current, setCurrent] = useState('')
  const [password, setPassword] = useState('')
  const [repeated, setRepeated] = useState('')
  const [errors, setErrors] = useState<{ current?: string; password?: string; form?: string }>({})
  const [saved, setSaved] = useState(false)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setSaved(false)
    const problem = passwordProblem(password, repeated)
    setErrors(problem ? { password: problem } : {})
    if (problem) return
    setBusy(true)
    try {
      await unwrap(api.POST('/api/v1/users/me/password', { body: { currentPassword: current, newPassword: password } }))
      setSaved(true)
      setCurrent('')
      setPassword('')
      setRepeated('')
    } catch (e) {
      const wrongCurrent = e instanceof ApiError && e.status === 422 && e.detail.startsWith('currentPassword')
      setErrors(wrongCurrent ? { current: 'This is not your current password.' } : { form: errorText(e) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <Stack maw={460}>
      <Title order={1} size="h2">
        Change password
      </Title>
      <Text size="sm">Your other sign-ins (other browsers, devices) end when you save; this one stays.</Text>
      <Card withBorder>
        <form onSubmit={submit}>
          <Stack>
            {saved && (
              <Alert color="green" role="status">
                Your password has been changed.
              </Alert>
            )}
            {errors.form && (
              <Alert color="red" role="alert">
                {errors.form}
              </Alert>
            )}
            <PasswordInput
              label="Current password"
              autoComplete="current-password"
              required
              value={current}
              onChange={(e) => setCurrent(e.currentTarget.value)}
              error={errors.current}
            />
            <NewPasswordFields
              password={password}
              repeated={repeated}
              onPassword={setPassword}
              onRepeated={setRepeated}
              error={errors.password}
              repeatLabel="Repeat the new password"
            />
            <Button type="submit" loading={busy} w="fit-content">
              Change password
            </Button>
          </Stack>
        </form>
      </Card>
    </Stack>
  )
}
