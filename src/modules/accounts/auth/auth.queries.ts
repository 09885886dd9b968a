import { sql } from 'kysely'
import type { LoginLimits } from '../../../config.js'
import type { Db } from '../../../db/database.js'
import { eventsInsert } from '../../../lib/events.js'
import { uuidv7s } from '../../../lib/ids.js'

/** A failure slot held for one login attempt, or the seconds until one of the full counters frees up. */
export type Reservation = { slot: string; retryAfter?: undefined } | { slot?: undefined; retryAfter: number }

/**
 * Takes a failure slot for a login attempt before its password is checked, so concurrent attempts
 * are counted exactly: an attempt is refused while its (e-mail, address) pair, its address or its
 * e-mail already has its limit of failures (held slots included) in the window. Attempts sharing an
 * address or an e-mail queue on transaction-scoped advisory locks, always address first, so two never
 * wait on each other; the count runs in a later statement, whose snapshot sees the slots committed
 * before the lock was granted. The locks live in the database, so this holds across instances.
 */
export function reserveAttempt(db: Db, email: string, address: string, limits: LoginLimits): Promise<Reservation> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(space), hashtext(value))
      from (values ('seaworthy login address', ${address}::text), ('seaworthy login email', ${email}::text)) as keys (space, value)`.execute(
      trx,
    )
    // Each counter is full while its limit-th newest failure is inside the window; the attempt waits for the last to leave.
    const { rows } = await sql<{ slot: string | null; retry_after: number | null }>`
      with recent as (
        select email_lower = ${email} as same_email, address = ${address} as same_address, created_at
          from login_failures
         where (email_lower = ${email} or address = ${address})
           and created_at > clock_timestamp() - make_interval(secs => ${limits.windowSeconds})
      ), blocked as (
        select greatest(
          (array_agg(created_at order by created_at desc) filter (where same_email and same_address))[${limits.maxPerPair}],
          (array_agg(created_at order by created_at desc) filter (where same_address))[${limits.maxPerAddress}],
          (array_agg(created_at order by created_at desc) filter (where same_email))[${limits.maxPerEmail}]
        ) as until
        from recent
      ), reserved as (
        insert into login_failures (email_lower, address)
        select ${email}, ${address} from blocked where until is null
        returning id
      )
      select (select id from reserved) as slot,
             extract(epoch from until + make_interval(secs => ${limits.windowSeconds}) - clock_timestamp())::float8 as retry_after
        from blocked`.execute(trx)
    const { slot, retry_after } = rows[0]
    return slot === null ? { retryAfter: retry_after ?? limits.windowSeconds } : { slot }
  })
}

/** The attempt succeeded: its slot is no failure. */
export async function releaseAttempt(db: Db, slot: string): Promise<void> {
  await db.deleteFrom('login_failures').where('id', '=', slot).execute()
}

/** Failures that left the window no longer count; trimming after each failure keeps the table small without a job. */
export async function forgetOldFailures(db: Db, windowSeconds: number): Promise<void> {
  await sql`delete from login_failures where created_at <= clock_timestamp() - make_interval(secs => ${windowSeconds})`.execute(db)
}

/** An operator's password reset also lifts the e-mail's throttling: its failures no longer count. */
export async function forgetFailuresOf(db: Db, email: string): Promise<void> {
  await db.deleteFrom('login_failures').where('email_lower', '=', email.toLowerCase()).execute()
}

/**
 * A refused login in the audit trail of the organization it concerns: the user's, or for an unknown
 * e-mail the organization whose domain it is in (target null); none when neither exists. The caller
 * proved no identity, so the actor is null; the request id still ties the event to the request. The
 * password never goes in. One statement: it finds the organization and writes the event.
 */
export async function recordLoginAttempt(
  db: Db,
  type: 'auth.login_failed' | 'auth.throttled',
  email: string,
  login: { address: string; requestId: string },
): Promise<void> {
  const source = { orgId: sql<string>`(select org_id from owner)`, actor: null, requestId: login.requestId }
  await db
    .with(
      'owner',
      () => sql<{ org_id: string; user_id: string | null }>`(
        (select organization_id as org_id, id as user_id from users where lower(email) = ${email} limit 1)
        union all
        (select id, null from organizations where lower(domain) = split_part(${email}, '@', 2) order by id limit 1)
        limit 1)`,
    )
    .with('audit', (qc) =>
      eventsInsert(
        qc,
        source,
        type,
        'user',
        sql`select user_id as target_id, jsonb_build_object('email', ${email}::text, 'address', ${login.address}::text) as data from owner`,
        uuidv7s(1),
      ),
    )
    .selectFrom('owner')
    .select('owner.org_id')
    .execute()
}
