import type { SeaworthyClient } from '../../../client/index.js'
import { ApiError, unwrap } from '../api.js'

export type UploadMime = 'application/pdf' | 'image/jpeg' | 'image/png'
export const UPLOAD_MIMES: UploadMime[] = ['application/pdf', 'image/jpeg', 'image/png']

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

/** The three-step upload (DECISIONS §5): intent, the presigned POST, finalize. Answers the upload's id. */
export async function uploadFile(api: SeaworthyClient, kind: string, file: File, onProgress: (fraction: number) => void): Promise<string> {
  const intent = await unwrap(
    api.POST('/api/v1/shared/uploads/intent', {
      body: { kind, mime: file.type as UploadMime, size: file.size, filename: file.name },
    }),
  )
  await post(intent.presignedPost.url, intent.presignedPost.fields, file, onProgress)
  await unwrap(api.POST('/api/v1/shared/uploads/{upload_id}/finalize', { params: { path: { upload_id: intent.uploadId } } }))
  return intent.uploadId
}
