import { Alert, Box, Button, FileButton, List, Progress, Stack, Text, Title } from '@mantine/core'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { type DragEvent, useState } from 'react'
import { useSession } from '../auth/session.js'
import { uploadFile } from '../records/upload-file.js'
import { GOOD } from '../shared/colours.js'
import { errorText } from '../shared/errors.js'
import { StatusBadge } from '../shared/StatusBadge.js'
import { type CourseImport, importPackage, packageMime } from './import-package.js'

/** The import's outcome: the job's state, and every rule a failed package breaks, in the service's words. */
function JobState({ job }: { job: CourseImport }) {
  return (
    <Stack gap="xs" data-testid="import-job" data-status={job.status}>
      <Text size="sm">
        Import <StatusBadge status={job.status} />
        {job.standard && ` · ${job.standard}`}
      </Text>
      {job.status === 'complete' && <Text c={GOOD}>The course is imported: it is in the Courses tab and can be assigned.</Text>}
      {job.errors.length > 0 && (
        <Alert color="red" title={`The package breaks ${job.errors.length} rule${job.errors.length === 1 ? '' : 's'}; nothing was changed`}>
          <List size="sm" spacing={4}>
            {job.errors.map((e) => (
              <List.Item key={`${e.code}-${e.path}-${e.message}`} data-code={e.code}>
                {e.message}{' '}
                <Text span c="dimmed" size="xs">
                  ({e.path || 'package'})
                </Text>
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
    </Stack>
  )
}

/** Admins import a cmi5 or SCORM package: dropped or chosen, uploaded with progress, then the import job followed. */
export function ImportTab() {
  const { api } = useSession()
  const queryClient = useQueryClient()
  const [progress, setProgress] = useState(0)
  const [job, setJob] = useState<CourseImport | null>(null)
  const [over, setOver] = useState(false)
  const run = useMutation({
    mutationFn: async (file: File) => {
      setJob(null)
      const mime = packageMime(file)
      if (!mime) throw new Error(`${file.name} is not a package: choose a .zip (cmi5 or SCORM) or a cmi5.xml.`)
      const typed = file.type === mime ? file : new File([file], file.name, { type: mime })
      const uploadId = await uploadFile(api, 'course_package', typed, (fraction) => setProgress(fraction))
      return importPackage(api, uploadId, setJob)
    },
    onSuccess: (finished) => finished.status === 'complete' && queryClient.invalidateQueries({ queryKey: ['courses'] }),
  })
  const drop = (event: DragEvent) => {
    event.preventDefault()
    setOver(false)
    const file = event.dataTransfer.files[0]
    if (file) run.mutate(file)
  }
  return (
    <Stack>
      <Title order={2} size="h4">
        Import a course package
      </Title>
      <Box
        p="xl"
        bd={`2px dashed ${over ? 'var(--mantine-color-blue-7)' : 'var(--mantine-color-gray-5)'}`}
        style={{ borderRadius: 8, textAlign: 'center' }}
        onDragOver={(e) => {
          e.preventDefault()
          setOver(true)
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
        data-testid="package-drop-zone"
      >
        <Stack align="center" gap="xs">
          <Text>Drop a cmi5 or SCORM zip here, or a cmi5.xml alone</Text>
          <FileButton onChange={(file) => file && run.mutate(file)} accept=".zip,.xml,application/zip,text/xml">
            {(props) => (
              <Button {...props} h={44} loading={run.isPending}>
                Choose a package
              </Button>
            )}
          </FileButton>
        </Stack>
      </Box>
      {run.isPending && !job && <Progress value={progress * 100} aria-label="Upload progress" animated />}
      {job && <JobState job={job} />}
      {run.isError && (
        <Alert color="red" role="alert">
          {errorText(run.error)}
        </Alert>
      )}
    </Stack>
  )
}
