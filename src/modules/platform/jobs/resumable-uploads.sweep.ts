import { deleteExpiredResumableUploads, expiredResumableUploads } from '../uploads/uploads.queries.js'
import type { ResumableStore } from '../uploads/uploads.resumable-store.js'
import { NIL_UUID, type Sweep } from './sweeps.js'

interface Expired {
  id: string
  storage_key: string
}

/**
 * Resumable uploads left unfinished past `resumable_until` (DECISIONS §16): their bytes and transfer
 * state are dropped from the store, then their rows. A client resuming one finds it gone (404) and
 * starts a new upload.
 */
export const resumableExpirySweep = (store: ResumableStore): Sweep<Expired> => ({
  job: 'resumable-upload-expiry',
  passes: [
    async (db, { orgId, after, limit }) => {
      const keys = await expiredResumableUploads(db, orgId, after ?? NIL_UUID, limit)
      return { keys, after: keys.length === limit ? keys[keys.length - 1].id : null }
    },
  ],
  async apply(db, orgId, expired) {
    for (const { storage_key } of expired) await store.discard(storage_key)
    return deleteExpiredResumableUploads(
      db,
      orgId,
      expired.map((row) => row.id),
    )
  },
})
