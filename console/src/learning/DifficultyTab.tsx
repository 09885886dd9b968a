import { BarChart } from '@mantine/charts'
import { Box, Stack, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { DataTable } from '../shared/DataTable.js'
import { QueryState } from '../shared/QueryState.js'

/** Pass rate per course as a chart to see; the numbers, attempts and enrollments too, as a table to read. */
export function DifficultyTab() {
  const { api } = useSession()
  const difficulty = useQuery({
    queryKey: ['course-difficulty'],
    queryFn: () => unwrap(api.GET('/api/v1/learn/admin/analytics/course-difficulty')),
  })
  return (
    <QueryState query={difficulty}>
      {({ data }) =>
        data.length === 0 ? (
          <Text c="dimmed">No attempts recorded yet.</Text>
        ) : (
          <Stack>
            <Box component="figure" m={0}>
              <figcaption>Pass rate per course (%); attempts and enrollments in the table below</figcaption>
              <BarChart
                h={300}
                data={data.map((d) => ({ course: d.course, 'Pass rate %': Math.round(d.passRate * 100) }))}
                dataKey="course"
                series={[{ name: 'Pass rate %', color: 'teal.8' }]}
                yAxisProps={{ domain: [0, 100] }}
              />
            </Box>
            <DataTable
              caption="Course difficulty"
              rows={data}
              rowKey={(d) => d.courseId}
              columns={[
                { header: 'Course', cell: (d) => d.course },
                { header: 'Pass rate', cell: (d) => `${Math.round(d.passRate * 100)} %` },
                { header: 'Average attempts', cell: (d) => d.avgAttempts.toFixed(2) },
                { header: 'Enrollments', cell: (d) => d.enrollments },
              ]}
            />
          </Stack>
        )
      }
    </QueryState>
  )
}
