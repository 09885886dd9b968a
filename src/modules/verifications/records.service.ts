import { v7 as uuidv7 } from 'uuid'
import type { Db } from '../../db/database.js'
import type { Actor } from '../../lib/access.js'
import { notFound } from '../../lib/errors.js'
import { changedOnly, isMaterial, ownerScope, type RecordKind } from './records.js'
import { deleteRecord, insertRecord, lockRecord, type RecordRow, updateRecord } from './records.queries.js'
import { deleteVerification } from './verifications.queries.js'
import { reopenAfterEdit, startReview } from './verifications.service.js'

/** Cross-field and reference checks of a write; throws the 422. `current` is absent on create. */
export type Check = (trx: Db, current?: RecordRow) => Promise<void>
/** Reads the record back in its response shape. */
export type Read<T> = (trx: Db, id: string) => Promise<T | undefined>

// A record and its verification always change together, in one transaction.

export function createRecord<T>(db: Db, kind: RecordKind, actor: Actor, userId: string, values: object, check: Check, read: Read<T>) {
  return db.transaction().execute(async (trx) => {
    await check(trx)
    const id = uuidv7()
    await insertRecord(trx, kind, { ...values, id, organization_id: actor.orgId, user_id: userId })
    await startReview(trx, actor, userId, { type: kind.target, id })
    return (await read(trx, id))!
  })
}

/** Applies the columns a PATCH sets; a material change sends a reviewed item back to review. */
export function editRecord<T>(db: Db, kind: RecordKind, actor: Actor, id: string, sent: object, check: Check, read: Read<T>) {
  return db.transaction().execute(async (trx) => {
    const current = await lockRecord(trx, kind, actor.orgId, id, ownerScope(actor))
    if (!current) throw notFound(kind.label)
    await check(trx, current)
    const changes = changedOnly(current, sent as Partial<RecordRow>)
    if (Object.keys(changes).length > 0) {
      await updateRecord(trx, kind, actor.orgId, id, changes)
      if (isMaterial(changes)) await reopenAfterEdit(trx, actor, { type: kind.target, id })
    }
    return (await read(trx, id))!
  })
}

export function removeRecord(db: Db, kind: RecordKind, actor: Actor, id: string) {
  return db.transaction().execute(async (trx) => {
    if (!(await deleteRecord(trx, kind, actor.orgId, id, ownerScope(actor)))) throw notFound(kind.label)
    await deleteVerification(trx, actor.orgId, { type: kind.target, id })
  })
}
