import { Anchor, List, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { QueryState } from '../shared/QueryState.js'

/** The codes in words; on demand, the assignment's own verdict with one sentence per blocker and warning. */
export function IssuesOf({ assignmentId, asOf, summary }: { assignmentId: string; asOf: string; summary: string }) {
  const { api } = useSession()
  const [open, setOpen] = useState(false)
  const detail = useQuery({
    queryKey: ['assignment-readiness', assignmentId, asOf],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/learn/assignments/{assignment_id}/readiness', {
          params: { path: { assignment_id: assignmentId }, query: { as_of: asOf || undefined } },
        }),
      ),
    enabled: open,
  })
  return (
    <>
      <Text size="sm" data-testid="readiness-codes">
        {summary}
      </Text>
      {open ? (
        <QueryState query={detail}>
          {(verdict) => (
            <List size="sm">
              {verdict.blockers.map((b) => (
                <List.Item key={`${b.code}-${b.requirement}`}>Blocker: {b.message}</List.Item>
              ))}
              {verdict.warnings.map((w) => (
                <List.Item key={`${w.code}-${w.requirement}`}>Warning: {w.message}</List.Item>
              ))}
            </List>
          )}
        </QueryState>
      ) : (
        <Anchor component="button" size="sm" onClick={() => setOpen(true)}>
          Details
        </Anchor>
      )}
    </>
  )
}
