import type { SeaworthyClient } from '../../../client/index.js'
import { ApiError, unwrap } from '../api.js'

export type UploadMime = 'application/pdf' | 'image/jpeg' | 'image/png'
export const UPLOAD_MIMES: UploadMime[] = ['application/pdf', 'image/jpeg', 'image/png']

/** A dropped connection while sending is tried again this many times, a little later each time. */
const SEND_RETRIES = 3
const RETRY_DELAY_MS = 2_000

/** Step 2: the multipart POST to the presigned target, through XHR because only it reports upload progress. */
function post(url: string, fields: Record<string, string>, file: File, onProgress: (fraction: number) => void): Promise<void> {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  form.append('file', file)
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total)
    xhr.onload = () =>
      xhr.status < 300 ? resolve() : reject(new ApiError(xhr.status, `The file was not accepted (${xhr.status}). Please try again.`))
    xhr.onerror = () => reject(new ApiError(0, 'The file could not be sent: check the connection and try again.'))
    xhr.open('POST', url)
    xhr.send(form)
  })
}

/** The POST again after a dropped connection (status 0), up to SEND_RETRIES times; a refusal is final. */
async function postRetrying(url: string, fields: Record<string, string>, file: File, onProgress: (fraction: number) => void) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await post(url, fields, file, onProgress)
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 0 || attempt >= SEND_RETRIES) throw error
      onProgress(0)
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS * (attempt + 1)))
    }
  }
}

export type UploadStep = 'intent' | 'sending' | 'checking'

/**
 * The three-step upload (DECISIONS §5): intent, the presigned POST, finalize. Answers the upload's id.
 * `onProgress` gets the whole flow's share done (the POST from 5 % to 90 %) and the step under way.
 */
export async function uploadFile(
  api: SeaworthyClient,
  kind: string,
  file: File,
  onProgress: (fraction: number, step: UploadStep) => void,
): Promise<string> {
  onProgress(0, 'intent')
  const intent = await unwrap(
    api.POST('/api/v1/shared/uploads/intent', {
      body: { kind, mime: file.type as UploadMime, size: file.size, filename: file.name },
    }),
  )
  onProgress(0.05, 'sending')
  await postRetrying(intent.presignedPost.url, intent.presignedPost.fields, file, (f) => onProgress(0.05 + f * 0.85, 'sending'))
  onProgress(0.9, 'checking')
  await unwrap(api.POST('/api/v1/shared/uploads/{upload_id}/finalize', { params: { path: { upload_id: intent.uploadId } } }))
  onProgress(1, 'checking')
  return intent.uploadId
}
