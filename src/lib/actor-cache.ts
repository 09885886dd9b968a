import type { StoredActor } from './access.js'

/** Announced by the database triggers of migration 0009, and by every revocation of a refresh token. */
export const ACTOR_CHANNEL = 'seaworthy_actors'
const TTL_MS = 60_000
const MAX_ENTRIES = 50_000

/** A caller as the database has them, with the instant (ms) up to which their tokens are refused. */
export interface Caller {
  actor: StoredActor
  tokensValidAfter: number | null
}

interface Entry {
  caller: Caller
  /** The user's sign-ins (`sid`) read as not revoked along with the caller. */
  signIns: Set<string>
  expires: number
}

/**
 * Callers as last read from the database, so most requests skip the lookup. It is only trusted
 * while the database's change announcements are being received (see Database.subscribe): an
 * announcement evicts the user (or, for an organization, everyone), and losing the subscription
 * empties and disables the cache until it is back. A suspension, a password reset or a revoked
 * sign-in therefore still applies at once: a revocation announces the user, whose next request reads
 * the database again.
 */
export class ActorCache {
  private readonly entries = new Map<string, Entry>()
  private generation = 0
  private live = false

  /** The caller, when cached with this sign-in among those read as live. */
  get(userId: string, signIn: string): Caller | undefined {
    if (!this.live) return undefined
    const entry = this.entries.get(userId)
    if (!entry || entry.expires < Date.now() || !entry.signIns.has(signIn)) return undefined
    return entry.caller
  }

  /** The mark to pass to `set`: a change announced in between makes that `set` a no-op. */
  mark(): number {
    return this.generation
  }

  /** Keeps the caller read with the sign-in `signIn` found live; the user's other sign-ins read since the last change stay. */
  set(caller: Caller, signIn: string, mark: number): void {
    if (!this.live || mark !== this.generation) return
    const now = Date.now()
    const kept = this.entries.get(caller.actor.userId)
    if (kept && kept.expires >= now) {
      kept.caller = caller
      kept.signIns.add(signIn)
      return
    }
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear()
    this.entries.set(caller.actor.userId, { caller, signIns: new Set([signIn]), expires: now + TTL_MS })
  }

  /** A change announcement: `organization:<id>` or a user id. */
  changed(payload: string): void {
    this.generation++
    if (payload.startsWith('organization:')) this.entries.clear()
    else this.entries.delete(payload)
  }

  listening(live: boolean): void {
    this.generation++
    this.live = live
    this.entries.clear()
  }
}
