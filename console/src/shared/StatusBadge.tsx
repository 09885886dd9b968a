import { Badge } from '@mantine/core'
import { BAD, GOOD, NEUTRAL, WAITING, WARN } from './colours.js'
import { labelOf } from './labels.js'

const COLOURS: Record<string, string> = {
  valid: GOOD,
  verified: GOOD,
  approved: GOOD,
  ready: GOOD,
  expiring_soon: WARN,
  pending: WAITING,
  in_review: WAITING,
  expired: BAD,
  rejected: BAD,
  action_needed: BAD,
  not_ready: BAD,
  active: GOOD,
  ends_today: WARN,
  updated: GOOD,
  failed: BAD,
  succeeded: GOOD,
  inactive: NEUTRAL,
  passed: GOOD,
  in_progress: WAITING,
  running: WAITING,
  complete: GOOD,
  terminated: GOOD,
  abandoned: WARN,
}

/** A coloured word for an expiry, verification or readiness state, never squeezed into "V…". */
export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge color={COLOURS[status] ?? NEUTRAL} variant="filled" data-status={status} style={{ flexShrink: 0, minWidth: 'max-content' }}>
      {labelOf(status)}
    </Badge>
  )
}
