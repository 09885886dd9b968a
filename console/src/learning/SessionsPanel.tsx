import { Button, Group, Select, Stack, Title } from '@mantine/core'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { components } from '../../../client/index.js'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { ConfirmButton } from '../shared/ConfirmButton.js'
import { DataTable } from '../shared/DataTable.js'
import { MutationAlert } from '../shared/MutationAlert.js'
import { QueryState } from '../shared/QueryState.js'
import { StatusBadge } from '../shared/StatusBadge.js'
import { durationText } from '../training/launch.js'

type Session = components['schemas']['LearningSession']
type WaiveReason = 'Tested Out' | 'Equivalent AU' | 'Equivalent Outside Activity' | 'Administrative'
const REASONS: WaiveReason[] = ['Tested Out', 'Equivalent AU', 'Equivalent Outside Activity', 'Administrative']

function AbandonButton({ session, registrationId }: { session: Session; registrationId: string }) {
  const { api } = useSession()
  const queryClient = useQueryClient()
  const abandon = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/learn/sessions/{session_id}/abandon', { params: { path: { session_id: session.id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['sessions', registrationId] }),
  })
  return (
    <>
      <ConfirmButton
        label="Abandon"
        question="End this session as abandoned?"
        onConfirm={() => abandon.mutate()}
        loading={abandon.isPending}
      />
      {abandon.isError && <MutationAlert mutation={abandon} />}
    </>
  )
}

/** Waives one AU of the registration with one of cmi5's reasons; the AU then counts as meeting its moveOn. */
function WaiveForm({ registrationId, aus }: { registrationId: string; aus: { index: number; title: string }[] }) {
  const { api } = useSession()
  const queryClient = useQueryClient()
  const [auIndex, setAuIndex] = useState<string | null>(aus.length === 1 ? '0' : null)
  const [reason, setReason] = useState<string | null>(null)
  const waive = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/learn/registrations/{registration_id}/waive', {
          params: { path: { registration_id: registrationId } },
          body: { auIndex: Number(auIndex), reason: reason as WaiveReason },
        }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['sessions', registrationId] })
      void queryClient.invalidateQueries({ queryKey: ['course-registrations'] })
    },
  })
  return (
    <Stack gap="xs">
      <Group align="end" wrap="wrap">
        <Select
          label="AU to waive"
          data={aus.map((a) => ({ value: String(a.index), label: a.title }))}
          value={auIndex}
          onChange={setAuIndex}
        />
        <Select label="Reason" data={REASONS} value={reason} onChange={setReason} />
        <Button onClick={() => waive.mutate()} disabled={auIndex === null || reason === null} loading={waive.isPending}>
          Waive
        </Button>
      </Group>
      <MutationAlert mutation={waive} saved="Waived." />
    </Stack>
  )
}

/** What the session's AU or SCO ended with: its verdict and score, else whether it was completed. */
const outcomeText = (s: Session) =>
  s.outcome
    ? `${s.outcome === 'passed' ? 'Passed' : 'Failed'}${s.scoreScaled === null ? '' : ` (${Math.round(s.scoreScaled * 100)}%)`}`
    : s.completed
      ? 'Completed'
      : '—'

/** Each activity (AU or SCO) of the course with where the learner is in it: its latest session's result. */
function ActivityProgress({ aus, sessions }: { aus: { index: number; title: string }[]; sessions: Session[] }) {
  // The list is newest first: an activity's first session in it is its latest.
  const latest = (index: number) => sessions.find((s) => s.auIndex === index)
  const progress = (index: number) => {
    const session = latest(index)
    if (!session) return 'Not started'
    return session.endedAt === null ? 'In progress' : outcomeText(session) === '—' ? 'Started' : outcomeText(session)
  }
  return (
    <DataTable
      caption="Progress by activity"
      rows={aus}
      rowKey={(au) => String(au.index)}
      columns={[
        { header: 'Activity', cell: (au) => au.title },
        { header: 'Sessions', cell: (au) => sessions.filter((s) => s.auIndex === au.index).length },
        { header: 'Latest', cell: (au) => progress(au.index) },
      ]}
    />
  )
}

/** A registration's sessions, newest first, with abandon for an open one and waive for an AU. */
export function SessionsPanel({ registrationId, aus }: { registrationId: string; aus: { index: number; title: string }[] }) {
  const { api } = useSession()
  const sessions = useQuery({
    queryKey: ['sessions', registrationId],
    queryFn: () =>
      unwrap(api.GET('/api/v1/learn/registrations/{registration_id}/sessions', { params: { path: { registration_id: registrationId } } })),
  })
  const title = (index: number) => aus.find((a) => a.index === index)?.title ?? `AU ${index}`
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        Sessions
      </Title>
      <QueryState query={sessions}>
        {(page) => (
          <Stack gap="xs">
            {aus.length > 1 && <ActivityProgress aus={aus} sessions={page.items} />}
            <DataTable
              caption="Sessions"
              rows={page.items}
              rowKey={(s) => s.id}
              columns={[
                { header: 'AU', cell: (s) => title(s.auIndex) },
                { header: 'Mode', cell: (s) => s.launchMode },
                { header: 'Started', cell: (s) => s.startedAt.slice(0, 16).replace('T', ' ') },
                { header: 'Ended', cell: (s) => (s.endedBy ? <StatusBadge status={s.endedBy} /> : 'Open') },
                { header: 'Duration', cell: (s) => (s.durationSeconds === null ? '—' : durationText(s.durationSeconds)) },
                { header: 'Result', cell: (s) => outcomeText(s) },
                {
                  header: 'Actions',
                  cell: (s) => (s.endedAt === null ? <AbandonButton session={s} registrationId={registrationId} /> : null),
                },
              ]}
            />
          </Stack>
        )}
      </QueryState>
      {aus.length > 0 && <WaiveForm registrationId={registrationId} aus={aus} />}
    </Stack>
  )
}
