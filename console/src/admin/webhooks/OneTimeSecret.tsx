import { Code } from '@mantine/core'
import { SecretShownOnce } from '../../shared/SecretShownOnce.js'

/** A webhook's signing secret, shown once after creating or rotating it. */
export function OneTimeSecret({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <SecretShownOnce
      title="Signing secret, shown only once"
      note={
        <>
          Copy it now and keep it with the receiving system: it verifies the <Code>webhook-signature</Code> header. The service never shows
          it again; if it is lost, rotate the secret.
        </>
      }
      secret={secret}
      testId="webhook-secret"
      onDone={onDone}
    />
  )
}
