import { Alert, Card, Group, Stack, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { CERTIFICATE, IDENTITY_DOCUMENT, type RecordKind } from '../records/record-kinds.js'
import { FormButton } from '../shared/FormButton.js'
import { labelOf } from '../shared/labels.js'
import { QueryState } from '../shared/QueryState.js'
import { StatusBadge } from '../shared/StatusBadge.js'
import { DocumentForm, type ReviewedRecord } from './DocumentForm.js'

const typeOf = (record: ReviewedRecord) => ('documentType' in record ? record.documentType : record.certificateType)
const numberOf = (record: ReviewedRecord) => ('documentType' in record ? record.documentNumber : record.certificateNumber)

/** One document: what it is, its expiry and review, the reason of a rejection, and the way to correct it. */
function RecordCard({ kind, record }: { kind: RecordKind; record: ReviewedRecord }) {
  const review = record.verification?.status ?? 'not_submitted'
  const name = [labelOf(typeOf(record)), numberOf(record)].filter(Boolean).join(' ')
  return (
    <Card withBorder padding="sm" data-testid="my-document" data-review={review}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={3} size="h5">
            {name}
          </Title>
          <Group gap={4}>
            <StatusBadge status={review} />
            <StatusBadge status={record.status} />
          </Group>
        </Group>
        <Text size="sm">{record.expiryDate ? `Expires ${record.expiryDate}` : 'No expiry date'}</Text>
        {review === 'rejected' && (
          <Alert color="red" title="Rejected by the office" role="status">
            {record.verification?.rejectionReason}
          </Alert>
        )}
        {review === 'pending' && <Text size="sm">The office will review it.</Text>}
        <Group>
          <FormButton
            label={review === 'rejected' ? 'Correct and resubmit' : 'Edit'}
            title={`Correct ${name}`}
            h={44}
            variant={review === 'rejected' ? 'filled' : 'default'}
          >
            {(close) => <DocumentForm kind={kind} record={record} onSaved={close} />}
          </FormButton>
        </Group>
      </Stack>
    </Card>
  )
}

function Section({ kind, title, records }: { kind: RecordKind; title: string; records: ReviewedRecord[] }) {
  return (
    <Stack gap="xs" component="section" aria-label={title}>
      <Group justify="space-between" wrap="wrap">
        <Title order={2} size="h4">
          {title}
        </Title>
        <FormButton
          label={`Add ${kind === CERTIFICATE ? 'a certificate' : 'a document'}`}
          title={`New ${kind.noun}`}
          h={44}
          variant="light"
        >
          {(close) => <DocumentForm kind={kind} onSaved={close} />}
        </FormButton>
      </Group>
      {records.length === 0 && <Text size="sm">None yet.</Text>}
      {records.map((r) => (
        <RecordCard key={r.id} kind={kind} record={r} />
      ))}
    </Stack>
  )
}

/** A crew member's own identity documents and certificates: send them from the phone, see their review, fix rejections. */
export default function MyDocumentsPage() {
  const { api, me } = useSession()
  const path = { params: { path: { user_id: me.user.id } } }
  const documents = useQuery({
    queryKey: ['documents', me.user.id],
    queryFn: () => unwrap(api.GET('/api/v1/crew/users/{user_id}/identity-documents', path)),
  })
  const certificates = useQuery({
    queryKey: ['certificates', me.user.id],
    queryFn: () => unwrap(api.GET('/api/v1/crew/users/{user_id}/certificates', path)),
  })
  return (
    <Stack>
      <Title order={1} size="h2">
        My documents
      </Title>
      <Text size="sm">Passport, visa, seaman's book, national id and certificates. A photo or scan in PDF, JPEG or PNG.</Text>
      <QueryState query={documents}>{(page) => <Section kind={IDENTITY_DOCUMENT} title="Identity documents" records={page} />}</QueryState>
      <QueryState query={certificates}>{(page) => <Section kind={CERTIFICATE} title="Certificates" records={page} />}</QueryState>
    </Stack>
  )
}
