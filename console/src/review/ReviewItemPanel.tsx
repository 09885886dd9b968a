import { Alert, Anchor, Button, Grid, Group, Stack, Table, Textarea, Title } from '@mantine/core'
import { getHotkeyHandler, useHotkeys } from '@mantine/hooks'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import { Link } from 'react-router'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { BAD, GOOD } from '../shared/colours.js'
import { errorText } from '../shared/errors.js'
import { QueryState } from '../shared/QueryState.js'
import { FilePreview } from './FilePreview.js'
import { loadReviewTarget, type ReviewItem, rejectItem, verifyItem } from './review-target.js'

interface Props {
  item: ReviewItem
  onDecided: (item: ReviewItem) => void
}

/** One queue item: the file beside its fields, and the two decisions. */
export function ReviewItemPanel({ item, onDecided }: Props) {
  const { api } = useSession()
  const target = useQuery({ queryKey: ['review-target', item.targetId], queryFn: () => loadReviewTarget(api, item) })
  const person = useQuery({
    queryKey: ['user', item.userId],
    queryFn: () => unwrap(api.GET('/api/v1/shared/users/{user_id}', { params: { path: { user_id: item.userId } } })),
  })
  const [reason, setReason] = useState('')
  const reasonField = useRef<HTMLTextAreaElement>(null)
  const decide = useMutation({
    mutationFn: (verdict: 'verify' | 'reject') => (verdict === 'verify' ? verifyItem(api, item) : rejectItem(api, item, reason.trim())),
    onSuccess: () => onDecided(item),
  })
  const verify = () => !decide.isPending && decide.mutate('verify')
  const reject = () => {
    if (!reason.trim()) return reasonField.current?.focus()
    if (!decide.isPending) decide.mutate('reject')
  }
  useHotkeys([
    ['v', verify],
    // Focuses the reason; the key itself must not land in the field.
    ['r', () => reasonField.current?.focus(), { preventDefault: true }],
  ])

  return (
    <QueryState query={target}>
      {(record) => (
        <Grid>
          <Grid.Col span={7}>
            <FilePreview uploadId={record.uploadId} />
          </Grid.Col>
          <Grid.Col span={5}>
            <Stack>
              <Title order={2} size="h3">
                {record.title}
              </Title>
              {person.data && (
                <Anchor component={Link} to={`/crew/${item.userId}`}>
                  {person.data.firstName} {person.data.lastName} ({person.data.email})
                </Anchor>
              )}
              <Table>
                <Table.Tbody>
                  {record.fields.map(([label, value]) => (
                    <Table.Tr key={label}>
                      <Table.Th scope="row">{label}</Table.Th>
                      <Table.Td>{value ?? '—'}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              {decide.isError && (
                <Alert color="red" role="alert">
                  {errorText(decide.error)}
                </Alert>
              )}
              <Button color={GOOD} onClick={verify} loading={decide.isPending && decide.variables === 'verify'}>
                Verify (V)
              </Button>
              <Textarea
                ref={reasonField}
                label="Reason for rejection"
                description="Ctrl+Enter rejects"
                value={reason}
                onChange={(e) => setReason(e.currentTarget.value)}
                onKeyDown={getHotkeyHandler([['mod+Enter', reject]])}
                maxLength={500}
              />
              <Group>
                <Button color={BAD} variant="outline" onClick={reject} loading={decide.isPending && decide.variables === 'reject'}>
                  Reject (R)
                </Button>
              </Group>
            </Stack>
          </Grid.Col>
        </Grid>
      )}
    </QueryState>
  )
}
