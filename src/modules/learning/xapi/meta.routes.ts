import type { ModuleDeps } from '../../types.js'
import { parseAgentParam } from './agents.js'
import { assertGranted, GRANTS } from './auth.js'
import { badRequest, XapiError } from './errors.js'
import type { XapiResource } from './http.js'
import { findActivity } from './statements.queries.js'

/** The versions this LRS speaks (DECISIONS §13.1: 1.0.0–1.0.3 accepted). */
export const XAPI_VERSIONS = ['1.0.3', '1.0.2', '1.0.1', '1.0.0']

function onlyParam(query: Record<string, string>, name: string): string {
  const unknown = Object.keys(query).find((key) => key !== name)
  if (unknown) throw badRequest(`${unknown}: not a parameter here; ${name} only`)
  if (query[name] === undefined) throw badRequest(`${name}: required`)
  return query[name]
}

export const metaResources = (deps: ModuleDeps): XapiResource[] => [
  {
    path: '/about',
    open: true,
    methods: { GET: async (_call, reply) => reply.type('application/json').send({ version: XAPI_VERSIONS, extensions: {} }) },
  },
  {
    path: '/activities',
    methods: {
      // The canonical definition merged from every statement that defined the activity; an unknown id has none.
      GET: async (call, reply) => {
        assertGranted(call.principal, GRANTS.readDefinitions)
        const id = onlyParam(call.query, 'activityId')
        const activity = await findActivity(deps.db, call.principal.orgId, id)
        const definition = activity?.definition ? { definition: activity.definition } : {}
        return reply.type('application/json').send({ objectType: 'Activity', id, ...definition })
      },
    },
  },
  {
    path: '/agents',
    methods: {
      // A Person of this one agent: the LRS does not merge identities it cannot prove are one person.
      GET: async (call, reply) => {
        assertGranted(call.principal, GRANTS.readDefinitions)
        const { agent, key: asked } = parseAgentParam(onlyParam(call.query, 'agent'))
        if (call.principal.session && asked !== call.principal.session.actorKey)
          throw new XapiError(403, "A session's credential reads only its own actor")
        const person: Record<string, unknown[]> = {}
        for (const key of ['name', 'mbox', 'mbox_sha1sum', 'openid', 'account'] as const) {
          if (agent[key] !== undefined) person[key] = [agent[key]]
        }
        return reply.type('application/json').send({ objectType: 'Person', ...person })
      },
    },
  },
]
