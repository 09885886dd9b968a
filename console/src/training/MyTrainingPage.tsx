import { Badge, Group, Stack, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useEffect } from 'react'
import { useLocation } from 'react-router'
import { useSession } from '../auth/session.js'
import { BAD, NEUTRAL, WARN } from '../shared/colours.js'
import { QueryState } from '../shared/QueryState.js'
import { useRefreshOnReturn } from '../shared/refresh-on-return.js'
import { type Registration, type Urgency, urgencyOf } from './launch.js'
import { meQuery, myRegistrationsQuery } from './my-queries.js'
import { RegistrationCard } from './RegistrationCard.js'

const URGENCY: Record<Urgency, { label: string; colour: string } | null> = {
  overdue: { label: 'Overdue', colour: BAD },
  soon: { label: 'Due within a week', colour: WARN },
  later: null,
  none: null,
}

/** Scrolls to `#registration-…` once the list is drawn (the link from My next contract). */
function useScrollToHash(ready: boolean) {
  const { hash } = useLocation()
  useEffect(() => {
    if (ready && hash) document.getElementById(hash.slice(1))?.scrollIntoView({ block: 'center' })
  }, [ready, hash])
}

/** A crew member's courses, by assignment: results so far, and Start, Resume or Review to open each. */
export default function MyTrainingPage() {
  const { api } = useSession()
  const registrations = useQuery(myRegistrationsQuery(api))
  const me = useQuery(meQuery(api))
  useRefreshOnReturn([['my-registrations'], ['me']])
  useScrollToHash(registrations.isSuccess && me.isSuccess)
  return (
    <Stack>
      <Title order={1} size="h2">
        My training
      </Title>
      <QueryState query={registrations}>
        {(page) => (
          <QueryState query={me}>
            {({ assignments }) => {
              const byAssignment = new Map<string, Registration[]>()
              for (const r of page.items) byAssignment.set(r.assignment_id, [...(byAssignment.get(r.assignment_id) ?? []), r])
              if (byAssignment.size === 0) return <Text>No courses are assigned to you.</Text>
              // The soonest due first; assignments without a due date last.
              const dueOf = (id: string) => assignments.find((a) => a.id === id)?.dueDate ?? '9999-12-31'
              const groups = [...byAssignment].sort(([a], [b]) => dueOf(a).localeCompare(dueOf(b)))
              return groups.map(([assignmentId, items]) => {
                const assignment = assignments.find((a) => a.id === assignmentId)
                const open = items.some((r) => r.status !== 'passed')
                const urgency = open ? URGENCY[urgencyOf(assignment?.dueDate ?? null)] : null
                return (
                  <Stack key={assignmentId} gap="xs" component="section" aria-label={assignment?.shipName ?? items[0]?.ship_name}>
                    <Group gap="xs" wrap="wrap">
                      <Title order={2} size="h4">
                        {assignment ? `${assignment.shipName} · ${assignment.role}` : (items[0]?.ship_name ?? 'Assignment')}
                      </Title>
                      {urgency && (
                        <Badge color={urgency.colour} variant="filled">
                          {urgency.label}
                        </Badge>
                      )}
                    </Group>
                    <Text size="sm" c={assignment?.dueDate ? undefined : NEUTRAL}>
                      {assignment?.dueDate ? `Courses due by ${assignment.dueDate}` : 'No due date'}
                    </Text>
                    {items.map((r) => (
                      <RegistrationCard key={r.id} registration={r} />
                    ))}
                  </Stack>
                )
              })
            }}
          </QueryState>
        )}
      </QueryState>
    </Stack>
  )
}
