import { Alert, Button, Code, CopyButton, Group, Text } from '@mantine/core'

/** A signing secret the service shows only once: in full, with a copy button and a note that it will not come back. */
export function OneTimeSecret({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <Alert color="blue" title="Signing secret, shown only once" role="status" aria-label="Signing secret, shown only once">
      <Text size="sm" mb="xs">
        Copy it now and keep it with the receiving system: it verifies the <Code>webhook-signature</Code> header. The service never shows it
        again; if it is lost, rotate the secret.
      </Text>
      <Code block data-testid="webhook-secret">
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
