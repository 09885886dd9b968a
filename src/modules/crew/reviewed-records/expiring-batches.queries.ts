import { sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { DB } from '../../../db/schema.js'
import { callerSource, eventsInsert, type FoundSource } from '../../../lib/events.js'
import { uuidv7s } from '../../../lib/ids.js'
import { referenceableUpload } from '../../platform/uploads/uploads.queries.js'
import { expiringWire, type InsertOutcome, insertExpiringAlone, type NewReviewed } from './reviewed-records.queries.js'
import type { RecordKind } from './reviewed-records.schemas.js'

// An office creates documents and certificates many at a time. Most of a create's PostgreSQL time is
// its statement's and its commit's, not its row's (measured: one create per statement 377–420 µs of
// CPU, eight per statement 120–156 µs each, about half of the difference the commit's WAL flush): the
// creates of one organization and kind that arrive while its statements run (at most two at once) wait,
// then go together, as ONE statement that writes each record with its verification, its history and
// its event, as a create of its own does. A create with no statement of its line running goes at once,
// alone (docs/performance.md, issue 42; docs/decisions/performance.md, perf-7).

type NewExpiring = NewReviewed<RecordKind['table']>
/** A create's outcome; a created record is its JSON text. */
type Outcome = InsertOutcome<string>

/** At most this many creates in one statement. */
const CREATES_PER_STATEMENT = 64
/** At most this many statements of one line at once: while one commits (waiting on the disk), the next runs. */
const STATEMENTS_AT_ONCE = 2

interface Waiting {
  record: NewExpiring
  resolve: (outcome: Outcome) => void
  reject: (error: unknown) => void
}

/** The creates that may share a statement: one kind and organization, and one shape of statement. */
interface Line {
  kind: RecordKind
  orgId: string
  days: number
  waiting: Waiting[]
  running: number
}

/** The lines of each database (a test process has several), by their key (`lineKey`). */
const lines = new WeakMap<Db, Map<string, Line>>()

/** What makes two creates' statements one: the columns they set, their upload's rule, their review's fields. */
function lineKey(kind: RecordKind, orgId: string, days: number, record: NewExpiring): string {
  const upload = record.upload === undefined ? 'none' : record.upload.ownerId === undefined ? 'org' : 'owner'
  return [kind.table, orgId, days, Object.keys(record.columns).join(), upload, Object.keys(record.review.fields).join()].join('|')
}

/**
 * Creates a record of a kind, its verification, its history's first entry and its created event
 * (`insertExpiringAlone`, or with others of its line in one statement); the record comes back as its
 * JSON text. Inside a transaction it is the transaction's own statement.
 */
export function insertExpiring(db: Db, kind: RecordKind, orgId: string, days: number, record: NewExpiring): Promise<Outcome> {
  if (db.isTransaction) return insertExpiringAlone(db, kind, orgId, days, record)
  let byKey = lines.get(db)
  if (!byKey) {
    byKey = new Map()
    lines.set(db, byKey)
  }
  const key = lineKey(kind, orgId, days, record)
  let line = byKey.get(key)
  if (!line) {
    line = { kind, orgId, days, waiting: [], running: 0 }
    byKey.set(key, line)
  }
  const queued = new Promise<Outcome>((resolve, reject) => line.waiting.push({ record, resolve, reject }))
  if (line.running < STATEMENTS_AT_ONCE) {
    line.running += 1
    void runLine(db, byKey, key, line)
  }
  return queued
}

/** Runs a line's statements one after another until no create waits; the line ends with its last runner. */
async function runLine(db: Db, byKey: Map<string, Line>, key: string, line: Line): Promise<void> {
  try {
    while (line.waiting.length > 0) await settle(db, line, line.waiting.splice(0, CREATES_PER_STATEMENT))
  } finally {
    line.running -= 1
    if (line.running === 0) byKey.delete(key)
  }
}

/**
 * Writes the creates and answers each. When their shared statement fails (one create's conflict fails
 * them all), each is written alone, so each gets its own answer, as without the others.
 */
async function settle(db: Db, { kind, orgId, days }: Line, waiting: Waiting[]): Promise<void> {
  const alone = (w: Waiting) => insertExpiringAlone(db, kind, orgId, days, w.record).then(w.resolve, w.reject)
  if (waiting.length === 1) return alone(waiting[0])
  let outcomes: Map<string, Outcome>
  try {
    outcomes = await insertTogether(db, kind, orgId, days, waiting.map((w) => w.record))
  } catch {
    await Promise.all(waiting.map(alone))
    return
  }
  for (const w of waiting) w.resolve(outcomes.get(w.record.id) as Outcome)
}

/** Each create's row: its owner found, and its record's JSON text (null: its upload was refused). */
type TogetherRow = { id: string; has_owner: boolean; wire: string | null }

/** The fields of a create that are not its record's or its verification's columns, typed as `jsonb_to_record` reads them. */
const SOURCE_FIELDS = sql.raw(`s(upload_owner uuid, action text, actor_user_id uuid, reason text,
  source_user_id uuid, source_role text, request_id text)`)

/**
 * The creates of one line in one statement, as `insertExpiringAlone` writes one (the owner read in the
 * organization, the upload's rule, the verification, its first history entry, the event whose data is
 * the answer), each create's values a row of one JSON array parameter, typed by the tables' own row types.
 */
export async function insertTogether(db: Db, kind: RecordKind, orgId: string, days: number, creates: NewExpiring[]) {
  // In their owners' order: the rows each locks (readiness_holders, per owner) are taken in one order by every
  // statement, so two statements of one organization (two lines, two processes) wait for each other, never deadlock.
  const records = [...creates].sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0))
  const names = Object.keys(records[0].columns)
  const fields = Object.keys(records[0].review.fields)
  const rows = records.map((record) => {
    const { actor, requestId } = 'actor' in record.source ? record.source : callerSource(record.source)
    const { action, actorUserId, reason } = record.review.event
    return {
      doc: { ...record.columns, id: record.id, user_id: record.userId },
      ver: record.review.fields,
      src: {
        upload_owner: record.upload?.ownerId ?? null,
        action,
        actor_user_id: actorUserId,
        reason,
        source_user_id: actor?.userId ?? null,
        source_role: actor?.role ?? null,
        request_id: requestId,
      },
    }
  })
  const upload = records[0].upload
  const uploadRule = upload
    ? sql`where exists (${referenceableUpload(db, orgId, {
        id: sql.ref<string>('owner.upload_id'),
        ownerId: upload.ownerId === undefined ? undefined : sql.ref<string>('owner.upload_owner'),
      })})`
    : sql``
  const wire = expiringWire(kind, orgId, days)
  const created = sql<{ target_id: string; data: unknown }>`select doc.id as target_id, ${wire('doc', 'ver')} as data,
      owner.source_user_id, owner.source_role, owner.request_id
    from doc join ver on ver.target_id = doc.id join owner on owner.id = doc.id`
  const source: FoundSource = {
    orgId: sql`${orgId}`,
    actor: { userId: sql`e.source_user_id`, role: sql`e.source_role` },
    requestId: sql`e.request_id`,
  }
  const events = eventsInsert<DB>(db, source, kind.created, kind.target, created, uuidv7s(records.length))
  const { rows: answers } = await sql<TogetherRow>`with input as (
      select d.id, d.user_id, ${sql.join(names.map((name) => sql.ref(`d.${name}`)))},
        ${sql.join(fields.map((field) => sql`v.${sql.id(field)} as ${sql.id(`ver_${field}`)}`))}, s.*
      from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) r
        cross join lateral jsonb_populate_record(null::${sql.table(kind.table)}, r -> 'doc') d
        cross join lateral jsonb_populate_record(null::verifications, r -> 'ver') v
        cross join lateral jsonb_to_record(r -> 'src') as ${SOURCE_FIELDS}
    ),
    -- Each owner read by its key: a join, planned once for any organization, may read all of one's users.
    owner as (select i.* from input i where (select u.organization_id from users u where u.id = i.user_id) = ${orgId}::uuid),
    doc as (
      insert into ${sql.table(kind.table)} (${sql.join([...names, 'id', 'organization_id', 'user_id'].map((name) => sql.id(name)))})
      select ${sql.join(names.map((name) => sql.ref(`owner.${name}`)))}, owner.id, ${orgId}::uuid, owner.user_id from owner ${uploadRule}
      returning *
    ),
    ver as (
      insert into verifications (target_type, target_id, organization_id, user_id, ${sql.join(fields.map((field) => sql.id(field)))})
      select ${kind.target}, doc.id, doc.organization_id, doc.user_id, ${sql.join(fields.map((field) => sql.ref(`owner.ver_${field}`)))}
      from doc join owner on owner.id = doc.id
      returning target_type, target_id, status, rejection_reason, reviewed_at
    ),
    event as (
      insert into verification_events (organization_id, target_type, target_id, from_status, to_status, action, actor_user_id, reason)
      select ${orgId}::uuid, ver.target_type, ver.target_id, null, ver.status, owner.action, owner.actor_user_id, owner.reason
      from ver join owner on owner.id = ver.target_id
    ),
    audit as (${events.returning([sql<string>`target_id`.as('target_id'), sql<string>`data::text`.as('wire')])})
    select i.id, owner.id is not null as has_owner, audit.wire
    from input i left join owner on owner.id = i.id left join audit on audit.target_id = i.id`.execute(db)
  return new Map(answers.map((row): [string, Outcome] => [row.id, outcomeOf(row)]))
}

const outcomeOf = (row: TogetherRow): Outcome => {
  if (!row.has_owner) return { found: 'user' }
  return row.wire === null ? { found: 'upload' } : { found: 'created', row: row.wire }
}
