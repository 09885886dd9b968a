import { Alert, Button, Code, CopyButton, Group, Text } from '@mantine/core'
import type { components } from '../../../client/index.js'

export type AccountLink = components['schemas']['AccountLink']

const PURPOSES = {
  invitation: { title: 'Invitation link', use: 'sets their password and signs them in' },
  password_reset: { title: 'Password reset link', use: 'lets them choose a new password' },
} as const

/**
 * A one-time account link as the service answers it: shown in full with a copy button and its expiry,
 * because the service may have no SMTP and the admin then hands the link over themselves.
 */
export function AccountLinkAlert({
  link,
  purpose,
  name,
  onDone,
}: {
  link: AccountLink
  purpose: keyof typeof PURPOSES
  name: string
  onDone: () => void
}) {
  const { title, use } = PURPOSES[purpose]
  const expires = new Date(link.expiresAt).toLocaleString()
  return (
    <Alert color="blue" title={title} role="status" aria-label={title}>
      <Text size="sm" mb="xs">
        Give this link to {name}: opened once, it {use}. It works until {expires}; a new link replaces it.
      </Text>
      <Code block data-testid="account-link" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
        {link.url}
      </Code>
      <Group mt="xs">
        <CopyButton value={link.url}>
          {({ copied, copy }) => (
            <Button size="xs" onClick={copy} variant={copied ? 'light' : 'filled'}>
              {copied ? 'Copied' : 'Copy link'}
            </Button>
          )}
        </CopyButton>
        <Button size="xs" variant="default" onClick={onDone}>
          Done
        </Button>
      </Group>
    </Alert>
  )
}
