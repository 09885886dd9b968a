import { Alert, Button, Code, CopyButton, Group, Text } from '@mantine/core'
import type { ReactNode } from 'react'

/** A secret the service shows only once: in full, with a copy button and what it is for (`note`). */
export function SecretShownOnce({
  title,
  note,
  secret,
  testId,
  onDone,
}: {
  title: string
  note: ReactNode
  secret: string
  testId: string
  onDone: () => void
}) {
  return (
    <Alert color="blue" title={title} role="status" aria-label={title}>
      <Text size="sm" mb="xs">
        {note}
      </Text>
      <Code block data-testid={testId}>
        {secret}
      </Code>
      <Group mt="xs">
        <CopyButton value={secret}>
          {({ copied, copy }) => (
            <Button size="xs" onClick={copy} variant={copied ? 'light' : 'filled'}>
              {copied ? 'Copied' : 'Copy secret'}
            </Button>
          )}
        </CopyButton>
        <Button size="xs" variant="default" onClick={onDone}>
          I have stored it
        </Button>
      </Group>
    </Alert>
  )
}
