import { Box, Stack, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { DataTable } from '../shared/DataTable.js'
import { QueryState } from '../shared/QueryState.js'

const ROW = 28
const LABEL = 180
const WIDTH = 560

/** The share answered right per question, hardest first, as plain SVG bars (they stay legible on a phone) and a table. */
export function QuestionDifficulty({ courseId }: { courseId: string }) {
  const { api } = useSession()
  const questions = useQuery({
    queryKey: ['question-difficulty', courseId],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/learn/admin/analytics/course-difficulty/{course_id}/questions', { params: { path: { course_id: courseId } } }),
      ),
  })
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        Questions, hardest first
      </Title>
      <QueryState query={questions}>
        {({ data }) => {
          if (data.length === 0) return <Text c="dimmed">No answers recorded yet.</Text>
          const name = (q: (typeof data)[number]) => q.description ?? q.activityId.split('/').at(-1) ?? q.activityId
          return (
            <>
              <Box component="figure" m={0} maw={WIDTH}>
                <figcaption>Share of learners answering right (%)</figcaption>
                <svg viewBox={`0 0 ${WIDTH} ${data.length * ROW}`} width="100%" role="img" aria-label="Share answered right per question">
                  {data.map((q, i) => (
                    <g key={q.activityId} transform={`translate(0 ${i * ROW})`}>
                      <text x={0} y={ROW / 2 + 4} fontSize={12}>
                        {name(q).slice(0, 26)}
                      </text>
                      <rect x={LABEL} y={4} width={(WIDTH - LABEL - 50) * q.correctRate} height={ROW - 8} fill="#1c5a96" />
                      <text x={LABEL + (WIDTH - LABEL - 50) * q.correctRate + 4} y={ROW / 2 + 4} fontSize={12}>
                        {Math.round(q.correctRate * 100)} %
                      </text>
                    </g>
                  ))}
                </svg>
              </Box>
              <DataTable
                caption="Question difficulty"
                rows={data}
                rowKey={(q) => q.activityId}
                columns={[
                  { header: 'Question', cell: (q) => name(q) },
                  { header: 'Answered', cell: (q) => q.attempts },
                  { header: 'Right', cell: (q) => `${Math.round(q.correctRate * 100)} %` },
                  { header: 'Discrimination', cell: (q) => (q.discrimination === null ? '—' : q.discrimination.toFixed(2)) },
                ]}
              />
            </>
          )
        }}
      </QueryState>
    </Stack>
  )
}
