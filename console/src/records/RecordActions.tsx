import { Group } from '@mantine/core'
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useSession } from '../auth/session.js'
import { ConfirmButton } from '../shared/ConfirmButton.js'
import { EntityForm } from '../shared/EntityForm.js'
import { FormButton } from '../shared/FormButton.js'
import { MutationAlert } from '../shared/MutationAlert.js'
import { bodyOf, type CrewRecord, type RecordKind, valuesOf } from './record-kinds.js'
import { UploadField } from './UploadField.js'

const refresh = (queryClient: QueryClient, kind: RecordKind, userId: string) => {
  for (const key of [kind.queryKey, 'verification']) queryClient.invalidateQueries({ queryKey: [key, userId] })
}

/** The form of one record, new or corrected, with its scan for the kinds that carry one. */
function RecordForm({ kind, userId, record, onSaved }: { kind: RecordKind; userId: string; record?: CrewRecord; onSaved: () => void }) {
  const { api } = useSession()
  const queryClient = useQueryClient()
  const [uploadId, setUploadId] = useState<string | null>(null)
  const initial = record ? valuesOf(kind, record) : null
  const save = (values: Record<string, string>) => {
    const body = { ...bodyOf(kind, values, initial), ...(uploadId ? { uploadId } : {}) }
    return record ? kind.update(api, record.id, body) : kind.create(api, userId, body)
  }
  const label = record ? `Correct the ${kind.noun}` : `New ${kind.noun}`
  return (
    <EntityForm
      label={label}
      fields={kind.fields(record !== undefined)}
      initial={initial ?? valuesOf(kind)}
      submitLabel={record ? 'Save changes' : `Add ${kind.noun}`}
      save={save}
      childFields={['uploadId']}
      onSaved={() => {
        refresh(queryClient, kind, userId)
        onSaved()
      }}
    >
      {(errors) => kind.upload && <UploadField kind={kind.upload} onUploaded={setUploadId} error={errors.uploadId} />}
    </EntityForm>
  )
}

export function AddRecordButton({ kind, userId }: { kind: RecordKind; userId: string }) {
  return (
    <FormButton label={`Add ${kind.noun}`} title={`New ${kind.noun}`} variant="light" size="xs">
      {(close) => <RecordForm kind={kind} userId={userId} onSaved={close} />}
    </FormButton>
  )
}

/** Correct or delete one record; a change to anything but the notes sends a reviewed record back to review. */
export function RecordActions({ kind, userId, record }: { kind: RecordKind; userId: string; record: CrewRecord }) {
  const { api } = useSession()
  const queryClient = useQueryClient()
  const remove = useMutation({
    mutationFn: () => kind.remove(api, record.id),
    onSuccess: () => refresh(queryClient, kind, userId),
  })
  return (
    <Group gap="xs" wrap="wrap">
      <FormButton label="Correct" title={`Correct the ${kind.noun}`} variant="default" size="xs">
        {(close) => <RecordForm kind={kind} userId={userId} record={record} onSaved={close} />}
      </FormButton>
      <ConfirmButton label="Delete" question={`Delete this ${kind.noun}?`} onConfirm={() => remove.mutate()} loading={remove.isPending} />
      {remove.isError && <MutationAlert mutation={remove} />}
    </Group>
  )
}
