import type { SeaworthyClient } from '../../../client/index.js'
import { ApiError, unwrap } from '../api.js'
import { CERTIFICATE, IDENTITY_DOCUMENT, type RecordKind } from '../records/record-kinds.js'
import { uploadResumably } from '../records/upload-resumable.js'
import { deleteDocument, documentsOf, putDocument, type QueuedDocument } from './store.js'

// Documents photographed with no link (DECISIONS §16): kept on the device with their scan (a photo shrunk
// first: shrink-photo.ts), then sent when the link returns, oldest first: the scan resumably (tus), continuing
// a cut upload where it stopped, then the same record create as online.

const KINDS: RecordKind[] = [IDENTITY_DOCUMENT, CERTIFICATE]

export async function queueDocument(userId: string, kind: RecordKind, body: Record<string, string | null>, file: File | null) {
  await putDocument({
    userId,
    kind: kind.queryKey,
    body,
    file: file && { blob: file, name: file.name, type: file.type },
    key: crypto.randomUUID(),
    at: Date.now(),
  })
}

function create(api: SeaworthyClient, item: QueuedDocument, body: Record<string, string | null>) {
  const headers = { 'idempotency-key': item.key }
  const path = { params: { path: { user_id: item.userId } }, headers }
  return item.kind === CERTIFICATE.queryKey
    ? unwrap(api.POST('/api/v1/crew/users/{user_id}/certificates', { ...path, body: body as never }))
    : unwrap(api.POST('/api/v1/crew/users/{user_id}/identity-documents', { ...path, body: body as never }))
}

/**
 * Sends the user's kept documents, oldest first: whether any was made. A refusal (4xx) is kept with its reason; a
 * dropped link stops until the next pass (one pass at a time per user: useOffline.ts).
 */
export async function sendDocuments(api: SeaworthyClient, userId: string): Promise<boolean> {
  let sent = false
  for (const item of await documentsOf(userId)) {
    if (item.refused || !item.id) continue
    const kind = KINDS.find((k) => k.queryKey === item.kind) ?? IDENTITY_DOCUMENT
    try {
      if (item.file && !item.uploadId && kind.upload) {
        const file = new File([item.file.blob], item.file.name, { type: item.file.type })
        const keepUrl = async (url: string) => void (await putDocument({ ...item, uploadUrl: url }))
        item.uploadId = await uploadResumably(api, kind.upload, file, item.uploadUrl ?? null, keepUrl)
        await putDocument(item)
      }
      await create(api, item, { ...item.body, ...(item.uploadId ? { uploadId: item.uploadId } : {}) })
      await deleteDocument(item.id)
      sent = true
    } catch (error) {
      const passing = !(error instanceof ApiError) || error.status === 0 || error.status >= 500 || error.status === 401
      if (passing || error.retryAfterSeconds !== null) throw error
      await putDocument({ ...item, refused: error.message })
    }
  }
  return sent
}
