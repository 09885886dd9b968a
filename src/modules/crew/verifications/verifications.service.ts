import type { Db } from '../../../db/database.js'
import type { VerificationStatus, VerificationTarget } from '../../../db/schema.js'
import { type Actor, rowOwner } from '../../../lib/access.js'
import { conflict, notFound } from '../../../lib/errors.js'
import { applyReview, type MoveEvent, type Review, type Target, type VerificationFields } from './verifications.queries.js'

// The one verification service (DECISIONS §3). Record modules write a record and its verification
// in one statement, so they always change together.

type ReviewAction = 'submit' | 'verify' | 'reject'

/** The verification state machine of DECISIONS §3: the states each move leaves from, and where it goes. */
const MOVES: Record<ReviewAction | 'edit', { from: VerificationStatus[]; to: VerificationStatus }> = {
  submit: { from: ['not_submitted', 'rejected'], to: 'pending' },
  verify: { from: ['pending'], to: 'verified' },
  reject: { from: ['pending'], to: 'rejected' },
  edit: { from: ['verified', 'rejected'], to: 'pending' },
}

/** Documents and certificates await review from the start; experience rows once submitted. */
const INITIAL: Record<VerificationTarget, VerificationStatus> = {
  identity_document: 'pending',
  certificate: 'pending',
  experience: 'not_submitted',
}

/** The review is recorded on verify/reject and cleared otherwise; a move to pending is a (re)submission. */
function fieldsFor(to: VerificationStatus, actorUserId: string, reason: string | null = null): VerificationFields {
  const now = new Date()
  const reviewed = to === 'verified' || to === 'rejected'
  return {
    status: to,
    ...(to === 'pending' ? { submitted_at: now } : {}),
    reviewed_at: reviewed ? now : null,
    reviewer_user_id: reviewed ? actorUserId : null,
    rejection_reason: to === 'rejected' ? reason : null,
  }
}

/** The verification a new record starts with, and the event that records its creation. */
export function initialReview(actor: Actor, type: VerificationTarget): { fields: VerificationFields; event: MoveEvent } {
  return { fields: fieldsFor(INITIAL[type], actor.userId), event: { action: 'create', actorUserId: actor.userId, reason: null } }
}

/** The event type of each move (DECISIONS §11); it targets the item reviewed, its data is the verification after the move. */
const EVENT_TYPES = {
  submit: 'verification.submitted',
  verify: 'verification.verified',
  reject: 'verification.rejected',
  edit: 'verification.reopened',
} as const

/** submit, verify or reject one item (`label` names it in a 404); any move the state machine does not allow is a 409. */
async function review(db: Db, actor: Actor, target: Target, label: string, action: ReviewAction, reason: string | null = null) {
  const move = MOVES[action]
  const outcome = await applyReview(db, actor, target, rowOwner(actor), {
    from: move.from,
    fields: fieldsFor(move.to, actor.userId, reason),
    event: { action, actorUserId: actor.userId, reason },
    eventType: EVENT_TYPES[action],
  })
  if (!outcome) throw notFound(label)
  if (!outcome.moved) throw conflict(`Cannot ${action} an item whose verification is ${outcome.status}`)
  return outcome.moved
}

export const submit = (db: Db, actor: Actor, target: Target, label: string) => review(db, actor, target, label, 'submit')
export const verify = (db: Db, actor: Actor, target: Target, label: string) => review(db, actor, target, label, 'verify')
export const reject = (db: Db, actor: Actor, target: Target, label: string, reason: string) =>
  review(db, actor, target, label, 'reject', reason)

/** The move a material edit (a change to any column but notes) makes on a verified or rejected item. */
export const reopenReview = (actor: Actor): Review => ({
  from: MOVES.edit.from,
  fields: fieldsFor(MOVES.edit.to, actor.userId),
  event: { action: 'edit', actorUserId: actor.userId, reason: null },
  eventType: EVENT_TYPES.edit,
})
