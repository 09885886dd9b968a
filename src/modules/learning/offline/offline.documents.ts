import type { Db } from '../../../db/database.js'
import type { XapiPrincipal } from '../xapi/auth.js'
import { deleteDocumentAsOf, writeDocumentAsOf } from '../xapi/documents.js'
import { writableDocument } from '../xapi/documents.routes.js'
import type { QueuedDocument, Refusal } from './offline.schemas.js'

// State and profile documents a course wrote or deleted offline (DECISIONS §16, launch-17): each checked as a live
// PUT or DELETE with the session's credential (its actor, activity and registration only), then applied when later
// than the stored one.

const PARAMS = ['activityId', 'agent', 'registration', 'stateId', 'profileId'] as const

/** The document's query parameters as the course sent them to the LRS. */
function queryOf(doc: QueuedDocument): Record<string, string> {
  return Object.fromEntries(PARAMS.flatMap((name) => (doc[name] === undefined ? [] : [[name, doc[name]]])))
}

/** Stores each document in its own transaction; a rule broken or a later version stored refuses that one only. */
export async function syncDocuments(
  db: Db,
  principal: XapiPrincipal,
  documents: readonly QueuedDocument[],
  result: { accepted: number; refused: Refusal[] },
  refusalOf: (error: unknown) => string | null,
): Promise<void> {
  for (const [index, doc] of documents.entries()) {
    try {
      const outcome = await db.transaction().execute((trx) => {
        const { scope, id } = writableDocument(principal, doc.resource, queryOf(doc))
        if ('deleted' in doc) return deleteDocumentAsOf(trx, principal.orgId, scope, id, new Date(doc.writtenAt))
        const incoming = { contentType: doc.contentType, content: Buffer.from(doc.body, 'utf8') }
        return writeDocumentAsOf(trx, principal.orgId, scope, id, incoming, new Date(doc.writtenAt))
      })
      if (outcome === 'older') result.refused.push({ document: index, reason: 'A later version of this document is stored' })
      else result.accepted++
    } catch (error) {
      const reason = refusalOf(error)
      if (reason === null) throw error
      result.refused.push({ document: index, reason })
    }
  }
}
