import { Button, Checkbox, Group, NumberInput, Stack, Table, Text, TextInput } from '@mantine/core'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import type { components } from '../../../client/index.js'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { labelOf } from '../shared/labels.js'
import { MutationAlert } from '../shared/MutationAlert.js'
import { useCan } from '../shared/permissions.js'
import { QueryState } from '../shared/QueryState.js'
import { ScrollRegion } from '../shared/ScrollRegion.js'
import { CERTIFICATE_TYPES, DOCUMENT_TYPES } from '../shared/record-types.js'

type Requirement = components['schemas']['Requirement']
const toggled = <T,>(list: T[], value: T) => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value])

/** Which documents and certificates each assignment role needs: rows are roles, columns are types. */
export function RequirementsTab() {
  const { api } = useSession()
  const editable = useCan()('requirements:write')
  const queryClient = useQueryClient()
  const requirements = useQuery({ queryKey: ['requirements'], queryFn: () => unwrap(api.GET('/api/v1/crew/requirements')) })
  const [rows, setRows] = useState<Requirement[]>([])
  const [newRole, setNewRole] = useState('')
  useEffect(() => setRows(requirements.data?.items ?? []), [requirements.data])
  const save = useMutation({
    mutationFn: () => unwrap(api.PUT('/api/v1/crew/requirements', { body: { items: rows } })),
    onSuccess: (data) => queryClient.setQueryData(['requirements'], data),
  })
  const update = (role: string, change: (r: Requirement) => Requirement) => setRows(rows.map((r) => (r.role === role ? change(r) : r)))

  return (
    <QueryState query={requirements}>
      {() => (
        <Stack>
          <ScrollRegion label="Requirements matrix">
            <Table miw={900}>
              <Table.Caption>Requirements matrix</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Role</Table.Th>
                  {[...DOCUMENT_TYPES, ...CERTIFICATE_TYPES].map((t) => (
                    <Table.Th key={t}>{labelOf(t)}</Table.Th>
                  ))}
                  <Table.Th>Sea service (days in role)</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r) => (
                  <Table.Tr key={r.role}>
                    <Table.Th scope="row">{r.role}</Table.Th>
                    {DOCUMENT_TYPES.map((t) => (
                      <Table.Td key={t}>
                        <Checkbox
                          aria-label={`${r.role} needs ${labelOf(t)}`}
                          checked={r.documentTypes.includes(t)}
                          disabled={!editable}
                          onChange={() => update(r.role, (x) => ({ ...x, documentTypes: toggled(x.documentTypes, t) }))}
                        />
                      </Table.Td>
                    ))}
                    {CERTIFICATE_TYPES.map((t) => (
                      <Table.Td key={t}>
                        <Checkbox
                          aria-label={`${r.role} needs ${labelOf(t)}`}
                          checked={r.certificateTypes.includes(t)}
                          disabled={!editable}
                          onChange={() => update(r.role, (x) => ({ ...x, certificateTypes: toggled(x.certificateTypes, t) }))}
                        />
                      </Table.Td>
                    ))}
                    <Table.Td>
                      <NumberInput
                        aria-label={`${r.role} needs days of sea service`}
                        min={0}
                        max={36500}
                        allowDecimal={false}
                        w={110}
                        disabled={!editable}
                        value={r.minSeaServiceDays ?? ''}
                        onChange={(value) => update(r.role, (x) => ({ ...x, minSeaServiceDays: typeof value === 'number' ? value : null }))}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollRegion>
          {!editable && <Text c="dimmed">Only admins change the requirements.</Text>}
          {editable && (
            <Group align="end">
              <TextInput label="Add a role" value={newRole} onChange={(e) => setNewRole(e.currentTarget.value)} />
              <Button
                variant="default"
                disabled={!newRole.trim() || rows.some((r) => r.role === newRole.trim())}
                onClick={() => {
                  setRows([...rows, { role: newRole.trim(), documentTypes: [], certificateTypes: [], minSeaServiceDays: null }])
                  setNewRole('')
                }}
              >
                Add role
              </Button>
              <Button onClick={() => save.mutate()} loading={save.isPending}>
                Save requirements
              </Button>
            </Group>
          )}
          <MutationAlert mutation={save} />
        </Stack>
      )}
    </QueryState>
  )
}
