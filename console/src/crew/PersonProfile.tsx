import { Group, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { useSession } from '../auth/session.js'
import { DataTable } from '../shared/DataTable.js'
import { labelOf } from '../shared/labels.js'
import { QueryState } from '../shared/QueryState.js'
import { StatusBadge } from '../shared/StatusBadge.js'
import { PersonAssignments } from './PersonAssignments.js'
import { SeaServiceSummary } from './SeaServiceSummary.js'
import { useProfileQueries } from './profile-queries.js'

const dash = (value: string | null | undefined) => value || '—'

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Stack gap="xs">
      <Title order={2} size="h3">
        {title}
      </Title>
      {children}
    </Stack>
  )
}

/** A person's records: documents and certificates with their expiry state, experience, next of kin, assignments, reviews. */
export function PersonProfile({ userId }: { userId: string }) {
  const { role } = useSession()
  const q = useProfileQueries(userId)
  const review = (v: { verification: { status: string } | null }) => <StatusBadge status={v.verification?.status ?? 'not_submitted'} />
  return (
    <Stack>
      <QueryState query={q.user}>
        {(user) => (
          <Group>
            <Title order={1} size="h2">
              {user.firstName} {user.lastName}
            </Title>
            <Text c="dimmed">
              {user.email} · {labelOf(user.role)}
            </Text>
            {q.verification.data && <StatusBadge status={q.verification.data.state} />}
          </Group>
        )}
      </QueryState>
      <Section title="Identity documents">
        <QueryState query={q.documents}>
          {(rows) => (
            <DataTable
              caption="Identity documents"
              rows={rows}
              rowKey={(d) => d.id}
              columns={[
                { header: 'Type', cell: (d) => labelOf(d.documentType) },
                { header: 'Number', cell: (d) => dash(d.documentNumber) },
                { header: 'Expires', cell: (d) => dash(d.expiryDate) },
                { header: 'Expiry', cell: (d) => <StatusBadge status={d.status} /> },
                { header: 'Review', cell: review },
              ]}
            />
          )}
        </QueryState>
      </Section>
      <Section title="Certificates">
        <QueryState query={q.certificates}>
          {(rows) => (
            <DataTable
              caption="Certificates"
              rows={rows}
              rowKey={(c) => c.id}
              columns={[
                { header: 'Type', cell: (c) => labelOf(c.certificateType) },
                { header: 'Number', cell: (c) => dash(c.certificateNumber) },
                { header: 'Expires', cell: (c) => dash(c.expiryDate) },
                { header: 'Expiry', cell: (c) => <StatusBadge status={c.status} /> },
                { header: 'Review', cell: review },
              ]}
            />
          )}
        </QueryState>
      </Section>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Section title="Experience">
          <QueryState query={q.experience}>
            {(rows) => (
              <DataTable
                caption="Experience"
                rows={rows}
                rowKey={(e) => e.id}
                columns={[
                  { header: 'Company', cell: (e) => e.companyName },
                  { header: 'Position', cell: (e) => e.position },
                  { header: 'Ship type', cell: (e) => dash(e.shipType) },
                  { header: 'Period', cell: (e) => `${e.startDate} – ${dash(e.endDate)}` },
                ]}
              />
            )}
          </QueryState>
        </Section>
        <Section title="Next of kin">
          <QueryState query={q.nextOfKin}>
            {(rows) => (
              <DataTable
                caption="Next of kin"
                rows={rows}
                rowKey={(k) => k.id}
                columns={[
                  { header: 'Name', cell: (k) => k.fullName },
                  { header: 'Relationship', cell: (k) => k.relationship },
                  { header: 'Phone', cell: (k) => dash(k.phone) },
                  { header: 'E-mail', cell: (k) => dash(k.email) },
                ]}
              />
            )}
          </QueryState>
        </Section>
      </SimpleGrid>
      <Section title="Sea service">
        <SeaServiceSummary userId={userId} />
      </Section>
      <Section title="Assignments">
        <PersonAssignments userId={userId} mine={role === 'crew'} />
      </Section>
      <Section title="Verification history">
        <QueryState query={q.verification}>
          {(v) => (
            <DataTable
              caption="Reviews"
              rows={v.items}
              rowKey={(i) => i.targetId}
              columns={[
                { header: 'Record', cell: (i) => labelOf(i.targetType) },
                { header: 'State', cell: (i) => <StatusBadge status={i.status} /> },
                { header: 'Reviewed', cell: (i) => dash(i.reviewedAt?.slice(0, 16).replace('T', ' ')) },
                { header: 'Reason', cell: (i) => dash(i.rejectionReason) },
              ]}
            />
          )}
        </QueryState>
      </Section>
    </Stack>
  )
}
