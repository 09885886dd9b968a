import { Group, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import type { UseQueryResult } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { useSession } from '../auth/session.js'
import { AccountActions } from '../people/AccountActions.js'
import { AddRecordButton, RecordActions } from '../records/RecordActions.js'
import { CERTIFICATE, type CrewRecord, EXPERIENCE, IDENTITY_DOCUMENT, NEXT_OF_KIN, type RecordKind } from '../records/record-kinds.js'
import type { Column } from '../shared/DataTable.js'
import { DataTable } from '../shared/DataTable.js'
import { labelOf } from '../shared/labels.js'
import { useCan } from '../shared/permissions.js'
import { QueryState } from '../shared/QueryState.js'
import { StatusBadge } from '../shared/StatusBadge.js'
import { PersonAssignments } from './PersonAssignments.js'
import { SeaServiceSummary } from './SeaServiceSummary.js'
import { useProfileQueries } from './profile-queries.js'
import { VerificationHistory } from './VerificationHistory.js'

const dash = (value: string | null | undefined) => value || '—'
const review = (v: { verification: { status: string } | null }) => <StatusBadge status={v.verification?.status ?? 'not_submitted'} />

function Section({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="wrap">
        <Title order={2} size="h3">
          {title}
        </Title>
        {action}
      </Group>
      {children}
    </Stack>
  )
}

/** A section of one kind of records; office staff who may write them add, correct and delete here. */
function Records<R extends CrewRecord>({
  title,
  kind,
  userId,
  editable,
  columns,
  query,
}: {
  title: string
  kind: RecordKind
  userId: string
  editable: boolean
  columns: Column<R>[]
  query: UseQueryResult<R[]>
}) {
  const actions: Column<R>[] = editable
    ? [{ header: 'Actions', cell: (r) => <RecordActions kind={kind} userId={userId} record={r} /> }]
    : []
  return (
    <Section title={title} action={editable && <AddRecordButton kind={kind} userId={userId} />}>
      <QueryState query={query}>
        {(rows) => <DataTable caption={title} rows={rows} rowKey={(r) => r.id} columns={[...columns, ...actions]} />}
      </QueryState>
    </Section>
  )
}

/** A person's records: documents and certificates with their expiry state, experience, next of kin, assignments, reviews. */
export function PersonProfile({ userId }: { userId: string }) {
  const { role, me } = useSession()
  const can = useCan()
  const q = useProfileQueries(userId)
  const editable = can('crew:write')
  const own = userId === me.user.id
  return (
    <Stack>
      <QueryState query={q.user}>
        {(user) => (
          <Group justify="space-between" wrap="wrap" align="start">
            <Group wrap="wrap">
              <Title order={1} size="h2">
                {user.firstName} {user.lastName}
              </Title>
              <Text c="dimmed">
                {user.email} · {labelOf(user.role)}
              </Text>
              {user.state !== 'active' && <StatusBadge status={user.state} />}
              {q.verification.data && <StatusBadge status={q.verification.data.state} />}
            </Group>
            {can('users:write') && !own && <AccountActions user={user} />}
          </Group>
        )}
      </QueryState>
      <Records
        title="Identity documents"
        kind={IDENTITY_DOCUMENT}
        userId={userId}
        editable={editable}
        query={q.documents}
        columns={[
          { header: 'Type', cell: (d) => labelOf(d.documentType) },
          { header: 'Number', cell: (d) => dash(d.documentNumber) },
          { header: 'Expires', cell: (d) => dash(d.expiryDate) },
          { header: 'Expiry', cell: (d) => <StatusBadge status={d.status} /> },
          { header: 'Review', cell: review },
        ]}
      />
      <Records
        title="Certificates"
        kind={CERTIFICATE}
        userId={userId}
        editable={editable}
        query={q.certificates}
        columns={[
          { header: 'Type', cell: (c) => labelOf(c.certificateType) },
          { header: 'Number', cell: (c) => dash(c.certificateNumber) },
          { header: 'Expires', cell: (c) => dash(c.expiryDate) },
          { header: 'Expiry', cell: (c) => <StatusBadge status={c.status} /> },
          { header: 'Review', cell: review },
        ]}
      />
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Records
          title="Experience"
          kind={EXPERIENCE}
          userId={userId}
          editable={editable}
          query={q.experience}
          columns={[
            { header: 'Company', cell: (e) => e.companyName },
            { header: 'Position', cell: (e) => e.position },
            { header: 'Ship type', cell: (e) => dash(e.shipType) },
            { header: 'Period', cell: (e) => `${e.startDate} – ${dash(e.endDate)}` },
          ]}
        />
        <Records
          title="Next of kin"
          kind={NEXT_OF_KIN}
          userId={userId}
          editable={editable}
          query={q.nextOfKin}
          columns={[
            { header: 'Name', cell: (k) => k.fullName },
            { header: 'Relationship', cell: (k) => k.relationship },
            { header: 'Phone', cell: (k) => dash(k.phone) },
            { header: 'E-mail', cell: (k) => dash(k.email) },
          ]}
        />
      </SimpleGrid>
      <Section title="Sea service">
        <SeaServiceSummary userId={userId} />
      </Section>
      <Section title="Assignments">
        <PersonAssignments userId={userId} mine={role === 'crew'} />
      </Section>
      <Section title="Verification history">
        <VerificationHistory query={q.verification} />
      </Section>
    </Stack>
  )
}
