import { Badge } from '@mantine/core'
import { labelOf } from './labels.js'

// Dark shades keep the white badge text above WCAG AA contrast.
const COLOURS: Record<string, string> = {
  valid: 'green.9',
  verified: 'green.9',
  approved: 'green.9',
  ready: 'green.9',
  expiring_soon: 'orange.9',
  pending: 'blue.9',
  in_review: 'blue.9',
  expired: 'red.9',
  rejected: 'red.9',
  action_needed: 'red.9',
  not_ready: 'red.9',
  active: 'green.9',
  updated: 'green.9',
  failed: 'red.9',
}

/** A coloured word for an expiry, verification or readiness state. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge color={COLOURS[status] ?? 'gray.8'} variant="filled" data-status={status}>
      {labelOf(status)}
    </Badge>
  )
}
