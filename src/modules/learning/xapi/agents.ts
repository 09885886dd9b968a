import { badRequest } from './errors.js'

/** An Agent or Group as a statement carries it (already validated). */
export interface XapiAgent {
  objectType?: 'Agent' | 'Group'
  name?: string
  mbox?: string
  mbox_sha1sum?: string
  openid?: string
  account?: { homePage: string; name: string }
  member?: XapiAgent[]
}

type Json = Record<string, any>

/**
 * The one string an Agent or identified Group is known by (its inverse functional identifier), used
 * as the filter column and the document key: two agents are the same when this is equal. Null for
 * an anonymous Group.
 */
export function agentKey(agent: XapiAgent | undefined): string | null {
  if (!agent) return null
  if (agent.mbox !== undefined) return `mbox:${agent.mbox}`
  if (agent.mbox_sha1sum !== undefined) return `mbox_sha1sum:${agent.mbox_sha1sum}`
  if (agent.openid !== undefined) return `openid:${agent.openid}`
  if (agent.account !== undefined) return `account:${JSON.stringify([agent.account.homePage, agent.account.name])}`
  return null
}

const IFIS = ['mbox', 'mbox_sha1sum', 'openid', 'account'] as const

/** Reads the `agent` parameter of a query or document request: JSON naming exactly one identifier. */
export function parseAgentParam(text: string, name = 'agent'): { agent: XapiAgent; key: string } {
  let agent: unknown
  try {
    agent = JSON.parse(text)
  } catch {
    throw badRequest(`${name}: not JSON`)
  }
  if (!agent || typeof agent !== 'object' || Array.isArray(agent)) throw badRequest(`${name}: not an Agent object`)
  const given = IFIS.filter((ifi) => (agent as Json)[ifi] !== undefined)
  if (given.length !== 1) throw badRequest(`${name}: an Agent needs exactly one of mbox, mbox_sha1sum, openid, account`)
  const { objectType, mbox, account } = agent as Json
  if (objectType !== undefined && objectType !== 'Agent' && objectType !== 'Group')
    throw badRequest(`${name}: objectType must be Agent or Group`)
  if (mbox !== undefined && (typeof mbox !== 'string' || !/^mailto:[^@\s]+@[^@\s]+$/.test(mbox)))
    throw badRequest(`${name}: mbox must be a mailto: IRI`)
  if (account !== undefined && (typeof account?.homePage !== 'string' || typeof account?.name !== 'string')) {
    throw badRequest(`${name}: account needs homePage and name`)
  }
  for (const ifi of ['mbox_sha1sum', 'openid'] as const) {
    if ((agent as Json)[ifi] !== undefined && typeof (agent as Json)[ifi] !== 'string') throw badRequest(`${name}: ${ifi} must be a string`)
  }
  return { agent: agent as XapiAgent, key: agentKey(agent as XapiAgent) as string }
}

/** The agent and its members (a Group's members are related to each statement the Group is in). */
function agentAndMembers(agent: Json | undefined): string[] {
  if (!agent || (agent.objectType !== 'Agent' && agent.objectType !== 'Group' && agent.objectType !== undefined)) return []
  const own = agentKey(agent as XapiAgent)
  const members = Array.isArray(agent.member) ? agent.member.flatMap((m: Json) => agentAndMembers(m)) : []
  return own ? [own, ...members] : members
}

function contextActivityIds(context: Json | undefined): string[] {
  const activities = context?.contextActivities ?? {}
  return ['parent', 'grouping', 'category', 'other'].flatMap((kind) => {
    const value = activities[kind]
    return (Array.isArray(value) ? value : value ? [value] : []).map((activity: Json) => activity.id as string)
  })
}

/** Everything `related_agents=true` matches: actor, object, authority, instructor, team, members, and a SubStatement's. */
export function relatedAgents(statement: Json): string[] {
  const objectAgents = statement.object?.objectType === 'SubStatement' ? relatedAgents(statement.object) : agentAndMembers(statement.object)
  const context = statement.context ?? {}
  const keys = [
    ...agentAndMembers(statement.actor),
    ...objectAgents,
    ...agentAndMembers(statement.authority),
    ...agentAndMembers(context.instructor),
    ...agentAndMembers(context.team),
  ]
  return [...new Set(keys)]
}

/** Everything `related_activities=true` matches: the object, the context activities, and a SubStatement's. */
export function relatedActivities(statement: Json): string[] {
  const object = statement.object ?? {}
  const own = object.objectType === undefined || object.objectType === 'Activity' ? [object.id as string] : []
  const sub = object.objectType === 'SubStatement' ? relatedActivities(object) : []
  return [...new Set([...own, ...contextActivityIds(statement.context), ...sub])]
}
