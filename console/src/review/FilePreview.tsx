import { Alert, Anchor, Image, Paper, Stack } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { QueryState } from '../shared/QueryState.js'
import { PdfFirstPage } from './PdfFirstPage.js'

const PREVIEW_WIDTH = 480

/** The uploaded file through its signed download link: an image as it is, a PDF as its first page. */
export function FilePreview({ uploadId }: { uploadId: string | null }) {
  const { api } = useSession()
  const upload = useQuery({
    queryKey: ['upload', uploadId],
    queryFn: () => unwrap(api.GET('/api/v1/shared/uploads/{upload_id}', { params: { path: { upload_id: uploadId ?? '' } } })),
    enabled: uploadId !== null,
  })
  if (uploadId === null) return <Alert color="gray">No file was uploaded with this record.</Alert>
  return (
    <QueryState query={upload}>
      {(file) => {
        if (!file.downloadUrl) return <Alert color="yellow">The file is not available for download ({file.status}).</Alert>
        const label = `Uploaded file ${file.originalFilename}`
        return (
          <Stack gap="xs" data-testid="file-preview">
            <Paper withBorder w="fit-content">
              {file.pageCount !== null ? (
                <PdfFirstPage url={file.downloadUrl} width={PREVIEW_WIDTH} label={label} />
              ) : (
                <Image src={file.downloadUrl} alt={label} w={PREVIEW_WIDTH} fit="contain" />
              )}
            </Paper>
            <Anchor href={file.downloadUrl} target="_blank" rel="noreferrer" size="sm">
              Open {file.originalFilename}
            </Anchor>
          </Stack>
        )
      }}
    </QueryState>
  )
}
