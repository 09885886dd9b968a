import type { StoredActor } from './access.js'

/** Announced by the database triggers of migration 0009. */
export const ACTOR_CHANNEL = 'seaworthy_actors'
const TTL_MS = 60_000
const MAX_ENTRIES = 50_000

/** A caller as the database has them, with the instant (ms) up to which their tokens are refused. */
export interface Caller {
  actor: StoredActor
  tokensValidAfter: number | null
}

/**
 * Callers as last read from the database, so most requests skip the lookup. It is only trusted
 * while the database's change announcements are being received (see Database.subscribe): an
 * announcement evicts the user (or, for an organization, everyone), and losing the subscription
 * empties and disables the cache until it is back. A suspension therefore still applies at once.
 */
export class ActorCache {
  private readonly entries = new Map<string, { caller: Caller; expires: number }>()
  private generation = 0
  private live = false

  get(userId: string): Caller | undefined {
    if (!this.live) return undefined
    const entry = this.entries.get(userId)
    if (!entry || entry.expires < Date.now()) return undefined
    return entry.caller
  }

  /** The mark to pass to `set`: a change announced in between makes that `set` a no-op. */
  mark(): number {
    return this.generation
  }

  set(caller: Caller, mark: number): void {
    if (!this.live || mark !== this.generation) return
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear()
    this.entries.set(caller.actor.userId, { caller, expires: Date.now() + TTL_MS })
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
