import { Anchor, Badge, Card, Group, List, Stack, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { Link } from 'react-router'
import type { components } from '../../../client/index.js'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { BAD, GOOD, WARN } from '../shared/colours.js'
import { QueryState } from '../shared/QueryState.js'
import { useRefreshOnReturn } from '../shared/refresh-on-return.js'
import { structureOf } from '../training/launch.js'
import { meQuery } from '../training/my-queries.js'
import { LINK_WORDS, whatToDo } from './what-to-do.js'

type MeAssignment = components['schemas']['MeAssignment']
type Issue = components['schemas']['ReadinessIssue']

function IssueItem({ issue, through, kind }: { issue: Issue; through: string; kind: 'blocker' | 'warning' }) {
  const { api } = useSession()
  // A course issue's requirement is the course id: whether it has a package decides where its result comes from.
  const courseId = issue.targetType === 'registration' ? issue.requirement : null
  const structure = useQuery({
    queryKey: ['course-structure', courseId],
    queryFn: () => structureOf(api, courseId ?? ''),
    enabled: courseId !== null,
    staleTime: 5 * 60_000,
  })
  const todo = whatToDo(issue, through, !(structure.isSuccess && structure.data === null))
  return (
    <List.Item data-testid={kind} data-code={issue.code}>
      <Text size="sm" fw={500} c={kind === 'blocker' ? BAD : WARN}>
        {issue.message}
      </Text>
      <Text size="sm">
        {todo.text}{' '}
        {todo.to && (
          <Anchor component={Link} to={todo.to} display="inline-block" py={10}>
            {LINK_WORDS[todo.to.replace(/#.*/, '')]}
          </Anchor>
        )}
      </Text>
    </List.Item>
  )
}

/** One assignment's verdict as the readiness API gives it, each issue with what to do about it. */
function AssignmentVerdict({ assignment }: { assignment: MeAssignment }) {
  const { api } = useSession()
  const verdict = useQuery({
    queryKey: ['my-readiness', assignment.id],
    queryFn: () =>
      unwrap(api.GET('/api/v1/learn/assignments/{assignment_id}/readiness', { params: { path: { assignment_id: assignment.id } } })),
  })
  const dates = [assignment.startDate && `from ${assignment.startDate}`, assignment.endDate && `to ${assignment.endDate}`]
    .filter(Boolean)
    .join(' ')
  return (
    <Card withBorder padding="sm" component="section" aria-label={`${assignment.shipName}, ${assignment.role}`} data-testid="contract">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={2} size="h4">
            {assignment.shipName} · {assignment.role}
          </Title>
          {verdict.data && (
            <Badge color={verdict.data.ready ? GOOD : BAD} variant="filled" data-testid="verdict">
              {verdict.data.ready ? 'Ready' : 'Not ready'}
            </Badge>
          )}
        </Group>
        {dates && <Text size="sm">{dates}</Text>}
        <QueryState query={verdict}>
          {(v) =>
            v.blockers.length + v.warnings.length === 0 ? (
              <Text size="sm">You have everything this contract needs.</Text>
            ) : (
              <List spacing="xs" listStyleType="none" pl={0}>
                {v.blockers.map((b) => (
                  <IssueItem key={`b-${b.code}-${b.requirement}-${b.targetId}`} issue={b} through={v.through} kind="blocker" />
                ))}
                {v.warnings.map((w) => (
                  <IssueItem key={`w-${w.code}-${w.requirement}-${w.targetId}`} issue={w} through={v.through} kind="warning" />
                ))}
              </List>
            )
          }
        </QueryState>
      </Stack>
    </Card>
  )
}

/** A crew member's active and upcoming assignments: ready or not, and what is still missing for each. */
export default function MyNextContractPage() {
  const { api } = useSession()
  const me = useQuery(meQuery(api))
  useRefreshOnReturn([['me'], ['my-readiness']])
  return (
    <Stack>
      <Title order={1} size="h2">
        My next contract
      </Title>
      <QueryState query={me}>
        {({ assignments }) => {
          const current = assignments.filter((a) => a.isActive)
          if (current.length === 0) return <Text>You have no active or upcoming assignment.</Text>
          return current.map((a) => <AssignmentVerdict key={a.id} assignment={a} />)
        }}
      </QueryState>
    </Stack>
  )
}
