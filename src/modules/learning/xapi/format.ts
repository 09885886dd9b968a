type Json = Record<string, any>

const IFIS = ['mbox', 'mbox_sha1sum', 'openid', 'account']
const AGENT_PLACES = ['actor', 'authority', 'instructor', 'team']

function agentIds(agent: Json): Json {
  const kept: Json = { objectType: agent.objectType ?? 'Agent' }
  for (const ifi of IFIS) if (agent[ifi] !== undefined) kept[ifi] = agent[ifi]
  if (agent.objectType === 'Group' && Array.isArray(agent.member) && !IFIS.some((ifi) => agent[ifi] !== undefined)) {
    kept.member = agent.member.map(agentIds)
  }
  return kept
}

function idsOfObject(object: Json): Json {
  switch (object.objectType) {
    case 'Agent':
    case 'Group':
      return agentIds(object)
    case 'SubStatement':
      return idsOf(object)
    case 'StatementRef':
      return object
    default:
      return { id: object.id }
  }
}

function idsOfContext(context: Json): Json {
  const out: Json = { ...context }
  for (const place of ['instructor', 'team']) if (context[place]) out[place] = agentIds(context[place])
  if (context.contextActivities) {
    out.contextActivities = Object.fromEntries(
      Object.entries(context.contextActivities).map(([kind, list]) => [kind, (list as Json[]).map((a) => ({ id: a.id }))]),
    )
  }
  return out
}

/** `format=ids`: agents and groups by their identifiers only, activities and verbs by their ids (xAPI 1.0.3 §2.1.3). */
export function idsOf(statement: Json): Json {
  const out: Json = { ...statement }
  for (const place of AGENT_PLACES) if (statement[place]) out[place] = agentIds(statement[place])
  if (statement.verb) out.verb = { id: statement.verb.id }
  if (statement.object) out.object = idsOfObject(statement.object)
  if (statement.context) out.context = idsOfContext(statement.context)
  return out
}

const LANGUAGE_MAP_KEYS = new Set(['display', 'name', 'description'])
const isLanguageMap = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string')

/** The entry of a language map the caller reads best: the first Accept-Language match, else the first entry. */
function pickLanguage(map: Record<string, string>, accepted: readonly string[]): Record<string, string> {
  const keys = Object.keys(map)
  const match =
    accepted.map((lang) => keys.find((key) => key.toLowerCase() === lang)).find(Boolean) ??
    accepted.map((lang) => keys.find((key) => key.toLowerCase().split('-')[0] === lang.split('-')[0])).find(Boolean) ??
    keys[0]
  return match === undefined ? {} : { [match]: map[match] }
}

/** `format=canonical`: each language map reduced to one language, chosen by Accept-Language. */
export function canonicalOf(value: unknown, accepted: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => canonicalOf(item, accepted))
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => {
      if (key === 'extensions') return [key, inner]
      if (LANGUAGE_MAP_KEYS.has(key) && isLanguageMap(inner)) return [key, pickLanguage(inner, accepted)]
      return [key, canonicalOf(inner, accepted)]
    }),
  )
}

/** Accept-Language's tags, most wanted first. */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return []
  return header
    .split(',')
    .map((entry) => {
      const [tag, ...params] = entry.trim().split(';')
      const q = Number(
        params
          .find((p) => p.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? 1,
      )
      return { tag: tag.trim().toLowerCase(), q: Number.isNaN(q) ? 0 : q }
    })
    .filter((entry) => entry.tag && entry.tag !== '*' && entry.q > 0)
    .sort((a, b) => b.q - a.q)
    .map((entry) => entry.tag)
}
