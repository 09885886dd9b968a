import { Button, Fieldset, Group, NumberInput, Stack, Table, Text } from '@mantine/core'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import type { components } from '../../../client/index.js'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { labelOf } from '../shared/labels.js'
import { MutationAlert } from '../shared/MutationAlert.js'
import { useCan } from '../shared/permissions.js'
import { QueryState } from '../shared/QueryState.js'
import { CERTIFICATE_TYPES, DOCUMENT_TYPES } from '../shared/record-types.js'

type Settings = components['schemas']['OrganizationSettings']
type Days = Record<string, number | string>

/** Blank inputs mean "use the default": they are sent as null, which removes the type's own value. */
const perType = (days: Days) => Object.fromEntries(Object.entries(days).map(([type, n]) => [type, typeof n === 'number' ? n : null]))

export function OrganizationTab() {
  const { api } = useSession()
  const editable = useCan()('organization:write')
  const queryClient = useQueryClient()
  const organization = useQuery({ queryKey: ['organization'], queryFn: () => unwrap(api.GET('/api/v1/shared/organization')) })
  const [settings, setSettings] = useState<Settings | null>(null)
  const [windows, setWindows] = useState<Days>({})
  const [margins, setMargins] = useState<Days>({})
  useEffect(() => {
    if (!organization.data) return
    setSettings(organization.data.settings)
    setWindows(organization.data.settings.expiryWindowDays)
    setMargins(organization.data.settings.validityMarginDays)
  }, [organization.data])

  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH('/api/v1/shared/organization', {
          body: {
            settings: {
              defaultExpiryWindowDays: settings?.defaultExpiryWindowDays,
              openEndedHorizonDays: settings?.openEndedHorizonDays,
              expiryWindowDays: perType(windows),
              validityMarginDays: perType(margins),
            },
          },
        }),
      ),
    onSuccess: (org) => queryClient.setQueryData(['organization'], org),
  })

  return (
    <QueryState query={organization}>
      {(org) =>
        settings && (
          <Fieldset variant="unstyled" disabled={!editable} maw={720}>
            <Stack>
              <Text>
                {org.name} · products: {org.products.join(', ')}
              </Text>
              <Group>
                <NumberInput
                  label="Default expiry window (days)"
                  min={0}
                  value={settings.defaultExpiryWindowDays}
                  onChange={(v) => typeof v === 'number' && setSettings({ ...settings, defaultExpiryWindowDays: v })}
                />
                <NumberInput
                  label="Open-ended assignment horizon (days)"
                  min={0}
                  value={settings.openEndedHorizonDays}
                  onChange={(v) => typeof v === 'number' && setSettings({ ...settings, openEndedHorizonDays: v })}
                />
              </Group>
              <Table>
                <Table.Caption>
                  Per type: the expiry window, and the validity margin past an assignment's end (blank: default)
                </Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Type</Table.Th>
                    <Table.Th>Expiry window (days)</Table.Th>
                    <Table.Th>Validity margin (days)</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {[...DOCUMENT_TYPES, ...CERTIFICATE_TYPES].map((type) => (
                    <Table.Tr key={type}>
                      <Table.Th scope="row">{labelOf(type)}</Table.Th>
                      <Table.Td>
                        <NumberInput
                          aria-label={`${labelOf(type)} expiry window`}
                          min={0}
                          value={windows[type] ?? ''}
                          onChange={(v) => setWindows({ ...windows, [type]: v })}
                        />
                      </Table.Td>
                      <Table.Td>
                        <NumberInput
                          aria-label={`${labelOf(type)} validity margin`}
                          min={0}
                          value={margins[type] ?? ''}
                          onChange={(v) => setMargins({ ...margins, [type]: v })}
                        />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              {editable ? (
                <Group>
                  <Button onClick={() => save.mutate()} loading={save.isPending}>
                    Save settings
                  </Button>
                </Group>
              ) : (
                <Text c="dimmed">Only admins change the organization's settings.</Text>
              )}
              <MutationAlert mutation={save} />
            </Stack>
          </Fieldset>
        )
      }
    </QueryState>
  )
}
