import type { Db } from '../../db/database.js'
import type { Role, VerificationTarget } from '../../db/schema.js'
import { type Actor, assertCanReachUser } from '../../lib/access.js'
import { type IssueList, notFound } from '../../lib/errors.js'
import { orgUserExists } from './verifications.queries.js'

// Helpers shared by a user's crew records (documents, certificates, experience, next of kin).

/** Who may create, change, delete and submit crew records (DECISIONS §2); crew only their own. */
export const RECORD_WRITERS: Role[] = ['admin', 'office_admin', 'crew']

/** A kind of record under review: its table, its verification target and its paths. */
export interface RecordKind {
  table: 'identity_documents' | 'certificates' | 'experiences'
  target: VerificationTarget
  label: string
  tag: string
  /** `/api/v1/crew/users/{user_id}/<path>` and `/api/v1/crew/<path>/{<param>}`. */
  path: string
  param: string
}

/** Crew see only their own records: item queries are narrowed to the caller. */
export const ownerScope = (actor: Actor): string | undefined => (actor.role === 'crew' ? actor.userId : undefined)

/** The user of a collection path: crew reach only themselves, staff any user of their organization. */
export async function reachUser(db: Db, actor: Actor, userId: string): Promise<void> {
  assertCanReachUser(actor, userId)
  if (!(await orgUserExists(db, actor.orgId, userId))) throw notFound('User')
}

/** Of the columns a PATCH sets, those whose value actually changes (re-sending a value is not an edit). */
export const changedOnly = <T extends object>(current: T, columns: Partial<T>): Partial<T> =>
  Object.fromEntries(Object.entries(columns).filter(([key, value]) => current[key as keyof T] !== value)) as Partial<T>

/** A change to anything but notes sends a reviewed item back to review (DECISIONS §3). */
export const isMaterial = (changes: object) => Object.keys(changes).some((key) => key !== 'notes')

export interface DateField {
  name: string
  value: string | null | undefined
  sent: boolean
}

/** A date as a request leaves it: the value sent, else the current one. */
export function dateField(name: string, column: string, sent: Record<string, unknown>, current?: Record<string, unknown>): DateField {
  const wasSent = sent[column] !== undefined
  const value = (wasSent ? sent[column] : current?.[column]) as string | null | undefined
  return { name, value, sent: wasSent }
}

/**
 * `later` may not be before `earlier`. The problem is reported at the date sent in this request
 * that breaks the rule, the later one when both were sent (DECISIONS §9).
 */
export function checkDateOrder(issues: IssueList, earlier: DateField, later: DateField): void {
  if (!earlier.value || !later.value || later.value >= earlier.value) return
  const field = later.sent || !earlier.sent ? later.name : earlier.name
  issues.add(['body', field], `${later.name} must not be before ${earlier.name}`, 'value_error')
}
