import type { UseQueryResult } from '@tanstack/react-query'
import type { components } from '../../../client/index.js'
import { DataTable } from '../shared/DataTable.js'
import { recordLabel } from '../shared/labels.js'
import { QueryState } from '../shared/QueryState.js'
import { StatusBadge } from '../shared/StatusBadge.js'

const dash = (value: string | null | undefined) => value || '—'

/** The review state of each of a person's records, with the rejection reasons. */
export function VerificationHistory({ query }: { query: UseQueryResult<components['schemas']['ProfileVerification']> }) {
  return (
    <QueryState query={query}>
      {(v) => (
        <DataTable
          caption="Reviews"
          rows={v.items}
          rowKey={(i) => i.targetId}
          columns={[
            { header: 'Record', cell: (i) => recordLabel(i.targetType, i.recordType, i.recordNumber) },
            { header: 'State', cell: (i) => <StatusBadge status={i.status} /> },
            { header: 'Reviewed', cell: (i) => dash(i.reviewedAt?.slice(0, 16).replace('T', ' ')) },
            { header: 'By', cell: (i) => dash(i.reviewerName) },
            { header: 'Reason', cell: (i) => dash(i.rejectionReason) },
          ]}
        />
      )}
    </QueryState>
  )
}
