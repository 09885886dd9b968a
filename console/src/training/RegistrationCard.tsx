import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useSession } from '../auth/session.js'
import { OfflineCourse } from '../offline/OfflineCourse.js'
import { errorText } from '../shared/errors.js'
import { StatusBadge } from '../shared/StatusBadge.js'
import { actionOf, durationText, launchCourse, type Registration, structureOf, TRAINING_PATH } from './launch.js'

/** One course of an assignment: its result so far and the buttons that open it (one per AU when it has several). */
export function RegistrationCard({ registration }: { registration: Registration }) {
  const { api } = useSession()
  const structure = useQuery({
    queryKey: ['course-structure', registration.course_id],
    queryFn: () => structureOf(api, registration.course_id),
    staleTime: 5 * 60_000,
  })
  const launch = useMutation({
    mutationFn: (auIndex: number) =>
      launchCourse(api, registration.id, { auIndex, launchMode: actionOf(registration.status).mode, returnPath: TRAINING_PATH }),
  })
  const action = actionOf(registration.status)
  const title = registration.course_title ?? 'Course'
  const aus = structure.data?.aus ?? []
  return (
    <Card withBorder padding="sm" id={`registration-${registration.id}`} data-testid="registration" data-status={registration.status}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={3} size="h5">
            {title}
          </Title>
          <StatusBadge status={registration.status} />
        </Group>
        <Group gap="md" wrap="wrap">
          <Text size="sm">Best score: {registration.score_percent === null ? '—' : `${registration.score_percent} %`}</Text>
          <Text size="sm">Attempts: {registration.attempt_count}</Text>
          <Text size="sm">Time spent: {durationText(registration.time_spent_seconds)}</Text>
        </Group>
        {structure.isSuccess && structure.data === null && (
          <Text size="sm" c="dimmed">
            This course is taken away from the console (in class or on board): the office records your result here.
          </Text>
        )}
        {structure.isError && (
          <Text size="sm" c="red">
            {errorText(structure.error)}
          </Text>
        )}
        {aus.length > 0 && (
          <Group gap="xs" wrap="wrap">
            {aus.map((au) => (
              <Button
                key={au.index}
                h={44}
                variant={registration.status === 'passed' ? 'default' : 'filled'}
                loading={launch.isPending && launch.variables === au.index}
                disabled={launch.isPending}
                onClick={() => launch.mutate(au.index)}
                aria-label={aus.length > 1 ? `${action.label}: ${au.title}` : `${action.label} ${title}`}
              >
                {aus.length > 1 ? `${action.label}: ${au.title}` : action.label}
              </Button>
            ))}
          </Group>
        )}
        {registration.status !== 'passed' && <OfflineCourse registrationId={registration.id} title={title} aus={aus} />}
        {launch.isError && (
          <Alert color="red" role="alert">
            {errorText(launch.error)}
          </Alert>
        )}
      </Stack>
    </Card>
  )
}
