import { Stack, Title } from '@mantine/core'
import { useCan } from '../../shared/permissions.js'
import { CredentialsPanel } from './CredentialsPanel.js'
import { StatementBrowser } from './StatementBrowser.js'

/** The LRS (DECISIONS §13.1): admins manage its credentials; admins and office admins browse its statements. */
export function LearningRecordsTab() {
  const can = useCan()
  return (
    <Stack gap="xl">
      {can('learn:xapi:credentials') && (
        <Stack component="section" aria-labelledby="lrs-credentials">
          <Title order={2} size="h4" id="lrs-credentials">
            Credentials
          </Title>
          <CredentialsPanel />
        </Stack>
      )}
      <Stack component="section" aria-labelledby="lrs-statements">
        <Title order={2} size="h4" id="lrs-statements">
          Statements
        </Title>
        <StatementBrowser />
      </Stack>
    </Stack>
  )
}
