import { send } from '../http.js'
import { type Cmi5Session, launchCmi5, statement, XAPI, XAPI_VERSION } from '../launch.js'
import type { World } from '../world.js'

// Crew A's cmi5 session, and a statement of crew B's own registration that it must not reach: made once
// per world and shared by the cases that need them.

export interface Cmi5Pair {
  session: Cmi5Session
  otherActor: Record<string, unknown>
  otherStatementId: string
}

const pairs = new WeakMap<World, Promise<Cmi5Pair>>()

async function makePair(world: World): Promise<Cmi5Pair> {
  const session = await launchCmi5(world.crewA.api, world.registrations.a.cmi5)
  const other = await launchCmi5(world.crewB.api, world.registrations.b.cmi5)
  const written = statement(other.actor, other.registration)
  const stored = await send(`${world.service.baseUrl}${XAPI}/statements`, {
    method: 'POST',
    headers: { authorization: world.lrsAuth, 'content-type': 'application/json', ...XAPI_VERSION },
    body: JSON.stringify(written),
  })
  if (stored.status !== 200) throw new Error(`storing crew B's statement answered ${stored.status} ${stored.text.slice(0, 200)}`)
  return { session, otherActor: other.actor, otherStatementId: written.id }
}

export function cmi5Pair(world: World): Promise<Cmi5Pair> {
  let pair = pairs.get(world)
  if (!pair) {
    pair = makePair(world)
    pairs.set(world, pair)
  }
  return pair
}
