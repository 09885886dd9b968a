import { Alert, Stack } from '@mantine/core'
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { components } from '../../../client/index.js'
import { useSession } from '../auth/session.js'
import { queueDocument } from '../offline/documents.js'
import { bodyOf, type RecordKind, valuesOf } from '../records/record-kinds.js'
import { EntityForm, type Waiting } from '../shared/EntityForm.js'
import { ScanPicker } from './ScanPicker.js'

/** A record with its review, as identity documents and certificates carry it. */
export type ReviewedRecord = components['schemas']['IdentityDocument'] | components['schemas']['Certificate']

/**
 * A crew member's own document, new or corrected, with its scan. Correcting a verified one warns first
 * that a change of anything but the notes sends it back to review (DECISIONS §3).
 */
export function DocumentForm({ kind, record, onSaved }: { kind: RecordKind; record?: ReviewedRecord; onSaved: () => void }) {
  const { api, me } = useSession()
  const userId = me.user.id
  const queryClient = useQueryClient()
  const [uploadId, setUploadId] = useState<string | null>(null)
  const [waiting, setWaiting] = useState<Waiting | null>(null)
  const [kept, setKept] = useState<File | null>(null)
  const initial = record ? valuesOf(kind, record) : null
  const save = (values: Record<string, string>) => {
    const body = { ...bodyOf(kind, values, initial), ...(uploadId ? { uploadId } : {}) }
    // A new document made with no link (or with a scan kept while there was none) waits on the device (DECISIONS §16).
    if (!record && (!navigator.onLine || (kept && !uploadId))) return queueDocument(userId, kind, body, kept)
    return record ? kind.update(api, record.id, body) : kind.create(api, userId, body)
  }
  const state = record?.verification?.status
  return (
    <Stack>
      {state === 'verified' && (
        <Alert color="yellow" title="This one is verified">
          Changing its number, country, dates or scan sends it back to the office for review, and it counts as not verified until they look
          again. Changing only the notes keeps the review.
        </Alert>
      )}
      {state === 'rejected' && (
        <Alert color="red" title="Rejected">
          {record?.verification?.rejectionReason ?? 'No reason was given.'} Correct what the office asked for; saving sends it back for
          review.
        </Alert>
      )}
      <EntityForm
        label={record ? `Correct the ${kind.noun}` : `New ${kind.noun}`}
        fields={kind.fields(record !== undefined)}
        initial={initial ?? valuesOf(kind)}
        submitLabel={record ? (state === 'rejected' ? 'Resubmit' : 'Save changes') : `Send ${kind.noun}`}
        save={save}
        childFields={['uploadId']}
        waiting={waiting}
        onSaved={() => {
          for (const key of [kind.queryKey, 'verification']) void queryClient.invalidateQueries({ queryKey: [key, userId] })
          void queryClient.invalidateQueries({ queryKey: ['my-readiness'] })
          onSaved()
        }}
      >
        {(errors) =>
          kind.upload && (
            <ScanPicker
              kind={kind.upload}
              onUploaded={setUploadId}
              onWaiting={setWaiting}
              onKept={record ? undefined : setKept}
              error={errors.uploadId}
            />
          )
        }
      </EntityForm>
    </Stack>
  )
}
