import { FileInput, Progress, Stack, Text } from '@mantine/core'
import { useMutation } from '@tanstack/react-query'
import { useSession } from '../auth/session.js'
import { GOOD } from '../shared/colours.js'
import { errorText } from '../shared/errors.js'
import { fieldErrors } from '../shared/field-errors.js'
import { useState } from 'react'
import { UPLOAD_MIMES, uploadFile } from './upload-file.js'

/**
 * The scan of a record: uploaded as soon as it is chosen, with a progress bar; the form saves the record
 * with the finished upload's id. A refused file (type, size) shows the service's reason at the field.
 */
export function UploadField({ kind, onUploaded, error }: { kind: string; onUploaded: (uploadId: string | null) => void; error?: string }) {
  const { api } = useSession()
  const [progress, setProgress] = useState(0)
  const upload = useMutation({
    mutationFn: (file: File) => uploadFile(api, kind, file, setProgress),
    onMutate: () => {
      setProgress(0)
      onUploaded(null)
    },
    onSuccess: onUploaded,
  })
  const refused = upload.isError ? (fieldErrors(upload.error).size ?? fieldErrors(upload.error).mime ?? errorText(upload.error)) : undefined
  return (
    <Stack gap={4}>
      <FileInput
        label="Scan (PDF, JPEG or PNG)"
        accept={UPLOAD_MIMES.join(',')}
        clearable
        onChange={(file) => (file ? upload.mutate(file) : onUploaded(null))}
        error={refused ?? error}
      />
      {upload.isPending && <Progress value={progress * 100} aria-label="Upload progress" animated />}
      {upload.isSuccess && (
        <Text size="sm" c={GOOD}>
          Uploaded.
        </Text>
      )}
    </Stack>
  )
}
