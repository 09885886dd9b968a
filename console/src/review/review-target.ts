import type { components, SeaworthyClient } from '../../../client/index.js'
import { unwrap } from '../api.js'
import { labelOf } from '../shared/labels.js'

export type ReviewItem = components['schemas']['ReviewQueueItem']

/** What the reviewer checks: the record's fields, and the uploaded file they were read from. */
export interface ReviewTarget {
  title: string
  fields: [label: string, value: string | null][]
  uploadId: string | null
}

async function identityDocument(api: SeaworthyClient, id: string): Promise<ReviewTarget> {
  const doc = await unwrap(api.GET('/api/v1/crew/identity-documents/{document_id}', { params: { path: { document_id: id } } }))
  return {
    title: labelOf(doc.documentType),
    uploadId: doc.uploadId,
    fields: [
      ['Number', doc.documentNumber],
      ['Issuing country', doc.issuingCountry],
      ['Issued', doc.issueDate],
      ['Expires', doc.expiryDate],
      ['Expiry status', labelOf(doc.status)],
      ['Notes', doc.notes],
    ],
  }
}

async function certificate(api: SeaworthyClient, id: string): Promise<ReviewTarget> {
  const cert = await unwrap(api.GET('/api/v1/crew/certificates/{certificate_id}', { params: { path: { certificate_id: id } } }))
  return {
    title: labelOf(cert.certificateType),
    uploadId: cert.uploadId,
    fields: [
      ['Number', cert.certificateNumber],
      ['Issuing authority', cert.issuingAuthority],
      ['Issued', cert.issueDate],
      ['Expires', cert.expiryDate],
      ['Expiry status', labelOf(cert.status)],
      ['Notes', cert.notes],
    ],
  }
}

/** Experience has no single read: it is found in the person's list. */
async function experience(api: SeaworthyClient, userId: string, id: string): Promise<ReviewTarget> {
  const rows = await unwrap(api.GET('/api/v1/crew/users/{user_id}/experience', { params: { path: { user_id: userId } } }))
  const row = rows.find((r) => r.id === id)
  if (!row) throw new Error('This experience record no longer exists.')
  return {
    title: `Experience at ${row.companyName}`,
    uploadId: null,
    fields: [
      ['Position', row.position],
      ['Ship type', row.shipType],
      ['From', row.startDate],
      ['To', row.endDate],
      ['Notes', row.notes],
    ],
  }
}

export function loadReviewTarget(api: SeaworthyClient, item: ReviewItem): Promise<ReviewTarget> {
  switch (item.targetType) {
    case 'identity_document':
      return identityDocument(api, item.targetId)
    case 'certificate':
      return certificate(api, item.targetId)
    case 'experience':
      return experience(api, item.userId, item.targetId)
  }
}

export async function verifyItem(api: SeaworthyClient, item: ReviewItem): Promise<void> {
  const id = item.targetId
  switch (item.targetType) {
    case 'identity_document':
      await unwrap(api.POST('/api/v1/crew/identity-documents/{document_id}/verify', { params: { path: { document_id: id } } }))
      return
    case 'certificate':
      await unwrap(api.POST('/api/v1/crew/certificates/{certificate_id}/verify', { params: { path: { certificate_id: id } } }))
      return
    case 'experience':
      await unwrap(api.POST('/api/v1/crew/experience/{experience_id}/verify', { params: { path: { experience_id: id } } }))
  }
}

export async function rejectItem(api: SeaworthyClient, item: ReviewItem, reason: string): Promise<void> {
  const id = item.targetId
  const body = { reason }
  switch (item.targetType) {
    case 'identity_document':
      await unwrap(api.POST('/api/v1/crew/identity-documents/{document_id}/reject', { params: { path: { document_id: id } }, body }))
      return
    case 'certificate':
      await unwrap(api.POST('/api/v1/crew/certificates/{certificate_id}/reject', { params: { path: { certificate_id: id } }, body }))
      return
    case 'experience':
      await unwrap(api.POST('/api/v1/crew/experience/{experience_id}/reject', { params: { path: { experience_id: id } }, body }))
  }
}
