import { PasswordInput } from '@mantine/core'
import { PASSWORD_RULE } from './password-rules.js'

interface NewPasswordFieldsProps {
  password: string
  repeated: string
  onPassword: (value: string) => void
  onRepeated: (value: string) => void
  error?: string | null
  repeatLabel: string
  autoFocus?: boolean
}

/** A new password typed twice, with the rule it must meet; `error` shows at the first field. */
export function NewPasswordFields({ password, repeated, onPassword, onRepeated, error, repeatLabel, autoFocus }: NewPasswordFieldsProps) {
  return (
    <>
      <PasswordInput
        label="New password"
        description={PASSWORD_RULE}
        autoComplete="new-password"
        required
        value={password}
        onChange={(e) => onPassword(e.currentTarget.value)}
        error={error}
        autoFocus={autoFocus}
      />
      <PasswordInput
        label={repeatLabel}
        autoComplete="new-password"
        required
        value={repeated}
        onChange={(e) => onRepeated(e.currentTarget.value)}
      />
    </>
  )
}
