import { Alert, Button, FileButton, Group, Image, Progress, Stack, Text } from '@mantine/core'
import { useMutation } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { useSession } from '../auth/session.js'
import { UPLOAD_MIMES, type UploadStep, uploadFile } from '../records/upload-file.js'
import { GOOD } from '../shared/colours.js'
import { refusedAfterUpload, refusedBeforeUpload } from './refused.js'

const STEP_WORDS: Record<UploadStep, string> = {
  intent: 'Preparing the upload…',
  sending: 'Sending the file…',
  checking: 'The service is checking the file…',
}

/** The chosen file as the person sees it: the photo itself, or a PDF's name and size. */
function Preview({ file }: { file: File }) {
  const [url, setUrl] = useState<string | null>(null)
  useEffect(() => {
    if (!file.type.startsWith('image/')) return
    const objectUrl = URL.createObjectURL(file)
    setUrl(objectUrl)
    return () => URL.revokeObjectURL(objectUrl)
  }, [file])
  if (url) return <Image src={url} alt={`Preview of ${file.name}`} mah={240} fit="contain" radius="sm" />
  return (
    <Text size="sm">
      {file.name} ({Math.ceil(file.size / 1024)} kB)
    </Text>
  )
}

/**
 * The scan of a record from a file or the phone's camera, sent at once in the three steps with one
 * progress bar; a refused file is explained in plain words, and a failed send can be tried again
 * without losing the form.
 */
export function ScanPicker({ kind, onUploaded, error }: { kind: string; onUploaded: (uploadId: string | null) => void; error?: string }) {
  const { api } = useSession()
  const [file, setFile] = useState<File | null>(null)
  const [refused, setRefused] = useState<string | null>(null)
  const [progress, setProgress] = useState<{ fraction: number; step: UploadStep }>({ fraction: 0, step: 'intent' })
  const upload = useMutation({
    mutationFn: (chosen: File) => uploadFile(api, kind, chosen, (fraction, step) => setProgress({ fraction, step })),
    onMutate: () => onUploaded(null),
    onSuccess: onUploaded,
  })
  const choose = (chosen: File | null) => {
    if (!chosen) return
    setFile(chosen)
    const why = refusedBeforeUpload(chosen)
    setRefused(why)
    if (why) {
      upload.reset()
      onUploaded(null)
    } else upload.mutate(chosen)
  }
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        Scan or photo (PDF, JPEG or PNG)
      </Text>
      <Group gap="xs" wrap="wrap">
        <FileButton onChange={choose} accept="image/jpeg,image/png" capture="environment">
          {(props) => (
            <Button {...props} h={44} variant="light">
              Take a photo
            </Button>
          )}
        </FileButton>
        <FileButton onChange={choose} accept={UPLOAD_MIMES.join(',')}>
          {(props) => (
            <Button {...props} h={44} variant="default">
              Choose a file
            </Button>
          )}
        </FileButton>
      </Group>
      {file && <Preview file={file} />}
      {upload.isPending && (
        <Stack gap={2}>
          <Progress value={progress.fraction * 100} aria-label="Upload progress" animated />
          <Text size="sm">{STEP_WORDS[progress.step]}</Text>
        </Stack>
      )}
      {upload.isSuccess && (
        <Text size="sm" c={GOOD}>
          Uploaded.
        </Text>
      )}
      {(refused || upload.isError || error) && (
        <Alert color="red" role="alert">
          {refused ?? (upload.isError && file ? refusedAfterUpload(upload.error, file) : error)}
          {upload.isError && file && (
            <Button mt="xs" h={44} variant="default" onClick={() => upload.mutate(file)}>
              Try again
            </Button>
          )}
        </Alert>
      )}
    </Stack>
  )
}
