import { Alert, Button, FileButton, Group, Image, Stack, Text } from '@mantine/core'
import { useMutation } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { useSession } from '../auth/session.js'
import { shrinkPhoto } from '../records/shrink-photo.js'
import { UPLOAD_MIMES, type UploadStep, uploadFile } from '../records/upload-file.js'
import { GOOD } from '../shared/colours.js'
import type { Waiting } from '../shared/EntityForm.js'
import { useLeaveGuard } from '../shared/leave-guard.js'
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

/** What the form waits for while a chosen scan is not uploaded: its progress, or a failure to settle first. */
function waitingFor(pending: boolean, fraction: number, failed: boolean): Waiting | null {
  if (pending) return { text: `Uploading the scan: ${Math.round(fraction * 100)}\u00a0%. Send waits for it.`, fraction }
  if (failed) return { text: 'The scan is not uploaded: try again, or remove it to send without a scan.' }
  return null
}

/**
 * The scan of a record from a file or the phone's camera, sent at once in the three steps; a refused file is
 * explained in plain words, and a failed send can be tried again without losing the form. Until the chosen
 * file is uploaded the form waits (`onWaiting`), and leaving asks first: a record is never sent without it.
 */
export function ScanPicker({
  kind,
  onUploaded,
  onWaiting,
  onKept,
  error,
}: {
  kind: string
  onUploaded: (uploadId: string | null) => void
  onWaiting: (waiting: Waiting | null) => void
  /** With no link, the chosen file is kept on the device instead, to go with the record when the link returns (DECISIONS §16). */
  onKept?: (file: File | null) => void
  error?: string
}) {
  const { api } = useSession()
  const [file, setFile] = useState<File | null>(null)
  const [refused, setRefused] = useState<string | null>(null)
  const [progress, setProgress] = useState<{ fraction: number; step: UploadStep }>({ fraction: 0, step: 'intent' })
  const upload = useMutation({
    mutationFn: (chosen: File) => uploadFile(api, kind, chosen, (fraction, step) => setProgress({ fraction, step })),
    onMutate: () => onUploaded(null),
    onSuccess: onUploaded,
  })
  const failed = file !== null && (refused !== null || upload.isError)
  useLeaveGuard(upload.isPending ? 'The scan is still uploading. Leave anyway and lose it?' : null)
  useEffect(
    () => onWaiting(waitingFor(upload.isPending, progress.fraction, failed)),
    [upload.isPending, progress.fraction, failed, onWaiting],
  )
  const [kept, setKept] = useState(false)
  const remove = () => {
    setFile(null)
    setRefused(null)
    upload.reset()
    onUploaded(null)
    setKept(false)
    onKept?.(null)
  }
  const [shrunkFrom, setShrunkFrom] = useState<number | null>(null)
  const choose = async (picked: File | null) => {
    if (!picked) return
    // A photo kept for the ship's link is shrunk first (DECISIONS §16's budget).
    const offline = onKept !== undefined && !navigator.onLine
    const chosen = offline ? await shrinkPhoto(picked) : picked
    setShrunkFrom(chosen === picked ? null : picked.size)
    setFile(chosen)
    const why = refusedBeforeUpload(chosen)
    setRefused(why)
    const keep = !why && offline
    setKept(keep)
    onKept?.(keep ? chosen : null)
    if (why) {
      upload.reset()
      onUploaded(null)
    } else if (!keep) upload.mutate(chosen)
  }
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        Scan or photo (PDF, JPEG or PNG)
      </Text>
      <Group gap="xs" wrap="wrap">
        <FileButton onChange={(picked) => void choose(picked)} accept="image/jpeg,image/png" capture="environment">
          {(props) => (
            <Button {...props} h={44} variant="light">
              Take a photo
            </Button>
          )}
        </FileButton>
        <FileButton onChange={(picked) => void choose(picked)} accept={UPLOAD_MIMES.join(',')}>
          {(props) => (
            <Button {...props} h={44} variant="default">
              Choose a file
            </Button>
          )}
        </FileButton>
      </Group>
      {file && <Preview file={file} />}
      {upload.isPending && <Text size="sm">{STEP_WORDS[progress.step]}</Text>}
      {kept && file && (
        <Text size="sm">
          No connection: the scan is kept on this device and sent with the document when the link returns. Sent as{' '}
          {Math.ceil(file.size / 1024)} KB{shrunkFrom !== null && ` (shrunk on this device from ${Math.ceil(shrunkFrom / 1024)} KB)`}.
        </Text>
      )}
      {upload.isSuccess && (
        <Text size="sm" c={GOOD}>
          Uploaded.
        </Text>
      )}
      {(refused || upload.isError || error) && (
        <Alert color="red" role="alert">
          {refused ?? (upload.isError && file ? refusedAfterUpload(upload.error, file) : error)}
          {file && (refused || upload.isError) && (
            <Group mt="xs" gap="xs" wrap="wrap">
              {upload.isError && (
                <Button h={44} variant="default" onClick={() => upload.mutate(file)}>
                  Try again
                </Button>
              )}
              <Button h={44} variant="subtle" onClick={remove}>
                Remove the file
              </Button>
            </Group>
          )}
        </Alert>
      )}
    </Stack>
  )
}
