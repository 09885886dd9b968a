import { ApiError } from '../api.js'
import { UPLOAD_MIMES, type UploadMime } from '../records/upload-file.js'
import { errorText } from '../shared/errors.js'
import { fieldErrors } from '../shared/field-errors.js'

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`

/** Why a chosen file cannot be sent, before sending it: null when it looks acceptable. */
export function refusedBeforeUpload(file: File): string | null {
  if (file.size === 0) return 'This file is empty. Choose the scan or take the photo again.'
  if (!UPLOAD_MIMES.includes(file.type as UploadMime)) {
    const what = file.type ? `a ${file.type} file` : 'a file of an unknown type'
    return `This is ${what}. Send a PDF, or a JPEG or PNG photo.`
  }
  return null
}

/** The service's refusal of a file in plain words: the size and type limits, or its own sentence. */
export function refusedAfterUpload(error: unknown, file: File): string {
  const fields = fieldErrors(error)
  if (fields.size)
    return `This file is ${megabytes(file.size)}, more than the service accepts. Take the photo at a lower resolution or scan at a lower quality.`
  if (fields.mime) return 'Only PDF, JPEG and PNG files are accepted.'
  if (error instanceof ApiError && error.status === 0)
    return 'The connection dropped while sending, several times. Check the connection and try again.'
  return `The file was refused: ${errorText(error)}`
}
