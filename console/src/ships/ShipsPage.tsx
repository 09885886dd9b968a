import { Group, Stack, Title } from '@mantine/core'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { components } from '../../../client/index.js'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { ConfirmButton } from '../shared/ConfirmButton.js'
import { DataTable } from '../shared/DataTable.js'
import { EntityForm, type Field, orNull, type Values } from '../shared/EntityForm.js'
import { FormButton } from '../shared/FormButton.js'
import { labelOf } from '../shared/labels.js'
import { MutationAlert } from '../shared/MutationAlert.js'
import { useCan } from '../shared/permissions.js'
import { QueryState } from '../shared/QueryState.js'
import { SHIP_TYPES, type ShipType } from '../shared/record-types.js'

type Ship = components['schemas']['Ship']

const FIELDS: Field[] = [
  { name: 'name', label: 'Name', required: true },
  { name: 'imoNumber', label: 'IMO number', required: true, description: '7 digits; the last is a check digit' },
  { name: 'mmsi', label: 'MMSI' },
  { name: 'callSign', label: 'Call sign' },
  { name: 'flag', label: 'Flag' },
  { name: 'portOfRegistry', label: 'Port of registry' },
  {
    name: 'shipType',
    label: 'Type',
    type: 'select',
    options: SHIP_TYPES.map((t) => ({ value: t, label: labelOf(t) })),
    description: 'Sea service is counted by ship type',
  },
  { name: 'grossTonnage', label: 'Gross tonnage (GT)', description: 'A whole number' },
  { name: 'propulsionPowerKw', label: 'Propulsion power (kW)', description: 'Main engine power, a whole number' },
]

/** A whole number as typed; anything else is sent as written, for the service to explain at the field. */
const numberOrNull = (value: string | undefined) => {
  const text = value?.trim()
  if (!text) return null
  return /^\d+$/.test(text) ? Number(text) : (text as unknown as number)
}

const valuesOf = (ship?: Ship): Values => ({
  name: ship?.name ?? '',
  imoNumber: ship?.imoNumber ?? '',
  mmsi: ship?.mmsi ?? '',
  callSign: ship?.callSign ?? '',
  flag: ship?.flag ?? '',
  portOfRegistry: ship?.portOfRegistry ?? '',
  shipType: ship?.shipType ?? '',
  grossTonnage: ship?.grossTonnage?.toString() ?? '',
  propulsionPowerKw: ship?.propulsionPowerKw?.toString() ?? '',
})

const bodyOf = (v: Values) => ({
  name: v.name?.trim() ?? '',
  imoNumber: v.imoNumber?.trim() ?? '',
  mmsi: orNull(v.mmsi),
  callSign: orNull(v.callSign),
  flag: orNull(v.flag),
  portOfRegistry: orNull(v.portOfRegistry),
  shipType: (orNull(v.shipType) as ShipType | null) ?? null,
  grossTonnage: numberOrNull(v.grossTonnage),
  propulsionPowerKw: numberOrNull(v.propulsionPowerKw),
})

function ShipActions({ ship, onChanged }: { ship: Ship; onChanged: () => void }) {
  const { api } = useSession()
  const path = { params: { path: { ship_id: ship.id } } }
  const remove = useMutation({ mutationFn: () => unwrap(api.DELETE('/api/v1/shared/ships/{ship_id}', path)), onSuccess: onChanged })
  return (
    <Stack gap={4}>
      <Group gap="xs" wrap="wrap">
        <FormButton label="Edit" title={`Edit ${ship.name}`} variant="default" size="xs">
          {(close) => (
            <EntityForm
              label={`Edit ${ship.name}`}
              fields={FIELDS}
              initial={valuesOf(ship)}
              submitLabel="Save ship"
              save={(v) => unwrap(api.PATCH('/api/v1/shared/ships/{ship_id}', { ...path, body: bodyOf(v) }))}
              onSaved={() => {
                onChanged()
                close()
              }}
            />
          )}
        </FormButton>
        <ConfirmButton label="Delete" question={`Delete ${ship.name}?`} onConfirm={() => remove.mutate()} loading={remove.isPending} />
      </Group>
      {remove.isError && <MutationAlert mutation={remove} />}
    </Stack>
  )
}

/** The fleet: every role of the office reads it; admins add, correct and remove ships. */
export default function ShipsPage() {
  const { api } = useSession()
  const can = useCan()
  const queryClient = useQueryClient()
  const ships = useQuery({
    queryKey: ['ships'],
    queryFn: () => unwrap(api.GET('/api/v1/shared/ships', { params: { query: { limit: 200 } } })),
  })
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['ships'] })
  const editable = can('ships:write')
  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2">
          Ships
        </Title>
        {editable && (
          <FormButton label="New ship" title="New ship">
            {(close) => (
              <EntityForm
                label="New ship"
                fields={FIELDS}
                initial={valuesOf()}
                submitLabel="Add ship"
                save={(v) => unwrap(api.POST('/api/v1/shared/ships', { body: bodyOf(v) }))}
                onSaved={() => {
                  refresh()
                  close()
                }}
              />
            )}
          </FormButton>
        )}
      </Group>
      <QueryState query={ships}>
        {(page) => (
          <DataTable
            caption="Ships"
            rows={page.items}
            rowKey={(s) => s.id}
            columns={[
              { header: 'Name', cell: (s) => s.name },
              { header: 'Type', cell: (s) => (s.shipType ? labelOf(s.shipType) : '—') },
              { header: 'IMO', cell: (s) => s.imoNumber },
              { header: 'Flag', cell: (s) => s.flag ?? '—' },
              { header: 'GT', cell: (s) => s.grossTonnage?.toLocaleString() ?? '—' },
              { header: 'Power (kW)', cell: (s) => s.propulsionPowerKw?.toLocaleString() ?? '—' },
              { header: 'Call sign', cell: (s) => s.callSign ?? '—' },
              { header: 'MMSI', cell: (s) => s.mmsi ?? '—' },
              { header: 'Port of registry', cell: (s) => s.portOfRegistry ?? '—' },
              ...(editable ? [{ header: 'Actions', cell: (s: Ship) => <ShipActions ship={s} onChanged={refresh} /> }] : []),
            ]}
          />
        )}
      </QueryState>
    </Stack>
  )
}
