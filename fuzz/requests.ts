import fc from 'fast-check'
import type { Operation } from '../test/served-routes.js'
import {
  Deep,
  deepValue,
  encodeLoose,
  HUGE_TEXT,
  NASTY_JSON,
  nastyString,
  OTHER_CONTENT_TYPES,
  RAW_BODIES,
  RAW_PATH_SEGMENTS,
  RAW_QUERY_TAILS,
} from './nasty.js'
import { invalid, type Mode, value } from './schema.js'
import { CALLERS, type Caller, type World } from './world.js'

// A request is generated as a plan (what to send, with ids still symbolic) and rendered against the
// world when it is sent, so the same seed sends the same requests to whatever ids the server made.

/** Text put into the URL as it is, not percent-encoded. */
class RawSegment {
  constructor(readonly text: string) {}
}

type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown; contentType: string }
  | { kind: 'form'; value: unknown; contentType: string }
  | { kind: 'raw'; raw: string | Buffer; contentType: string | null }

export interface Plan {
  op: number
  caller: Caller
  path: Record<string, unknown>
  query: [string, unknown][]
  queryTail: string | null
  body: Body
  accept: string | null
  requestId: string | null
}

export interface Request {
  method: Operation['method']
  url: string
  headers: Record<string, string>
  payload?: string | Buffer
}

const JSON_TYPE = 'application/json'
const FORM_TYPE = 'application/x-www-form-urlencoded'

const callerArb: fc.Arbitrary<Caller> = fc.oneof(
  { weight: 16, arbitrary: fc.constantFrom<Caller>('admin', 'office_admin', 'office_employee', 'crew') },
  { weight: 2, arbitrary: fc.constantFrom<Caller>('other:admin', 'other:crew') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      ...CALLERS.filter((c) => c === 'anonymous' || c.startsWith('forged:') || c === 'lowercase-scheme' || c === 'session'),
    ),
  },
)

const requestIdArb = fc.option(
  fc.oneof(
    fc.string({ unit: fc.constantFrom(...'ABCXYZabcxyz0123456789._-'), minLength: 1, maxLength: 128 }),
    fc.constantFrom('', ' ', 'x'.repeat(129), 'not allowed!', 'caf\u00e9'),
  ),
  { freq: 3, nil: null },
)
const acceptArb = fc.option(
  fc.constantFrom('application/json', '*/*', 'text/csv', 'text/html', 'application/xml', 'application/json;q=0'),
  {
    freq: 3,
    nil: null,
  },
)

function pathArb(op: Operation, mode: Mode): fc.Arbitrary<Record<string, unknown>> {
  const params = op.parameters.filter((p) => p.in === 'path')
  const shape = Object.fromEntries(
    params.map((p) => {
      const good = value(p.schema, p.name, 'valid')
      if (mode === 'valid') return [p.name, good]
      const raw = fc.constantFrom(...RAW_PATH_SEGMENTS).map((text) => new RawSegment(text))
      return [
        p.name,
        fc.oneof({ weight: 8, arbitrary: good }, { weight: 1, arbitrary: invalid(p.schema, p.name) }, { weight: 1, arbitrary: raw }),
      ]
    }),
  )
  return fc.record(shape)
}

function queryArb(op: Operation, mode: Mode): fc.Arbitrary<[string, unknown][]> {
  const params = op.parameters.filter((p) => p.in === 'query')
  const one = params.map((p) => {
    const given = value(p.schema, p.name, mode)
    // Parameters with a default are listed as required; leaving them out is valid too.
    const presence = p.required && mode === 'valid' ? given : fc.option(given, { freq: 2, nil: undefined })
    return presence.map((v): [string, unknown][] => (v === undefined ? [] : [[p.name, v]]))
  })
  const extras =
    mode === 'valid'
      ? fc.constant([])
      : fc.array(fc.tuple(fc.oneof(fc.constantFrom(...params.map((p) => p.name), 'unknown'), nastyString), nastyString), { maxLength: 2 })
  return fc.tuple(fc.tuple(...one), extras).map(([pairs, more]) => [...pairs.flat(), ...more])
}

function bodyArb(op: Operation, mode: Mode): fc.Arbitrary<Body> {
  const types = Object.keys(op.bodies)
  const documented = types.map((type) => {
    const kind = type === FORM_TYPE ? ('form' as const) : ('json' as const)
    return value(op.bodies[type], '', mode).map((v): Body => ({ kind, value: v, contentType: type }))
  })
  if (mode === 'valid') return documented.length ? fc.oneof(...documented) : fc.constant({ kind: 'none' })
  const raw = (contentType: fc.Arbitrary<string | null>, payload: fc.Arbitrary<string | Buffer>) =>
    fc.tuple(contentType, payload).map(([type, text]): Body => ({ kind: 'raw', raw: text, contentType: type }))
  const anyJson = fc.oneof(fc.constantFrom(...NASTY_JSON), fc.jsonValue({ maxDepth: 3 }), deepValue)
  const junk = fc.oneof(
    raw(fc.constant(JSON_TYPE), fc.constantFrom(...RAW_BODIES)),
    raw(fc.constant(JSON_TYPE), fc.constant('')),
    raw(fc.constantFrom(JSON_TYPE, 'text/plain'), fc.constant(HUGE_TEXT)),
    raw(fc.constantFrom(...OTHER_CONTENT_TYPES), fc.oneof(fc.constantFrom(...RAW_BODIES), nastyString, fc.constant('a=1&b=2'))),
    raw(fc.constant(null), fc.constant('{"a":1}')),
    anyJson.map((v): Body => ({ kind: 'json', value: v, contentType: JSON_TYPE })),
    fc.constant<Body>({ kind: 'none' }),
  )
  if (!documented.length) return fc.oneof({ weight: 12, arbitrary: fc.constant<Body>({ kind: 'none' }) }, { weight: 1, arbitrary: junk })
  const wrongForm = value(op.bodies[types[0]], '', mode).map((v): Body => ({ kind: 'form', value: v, contentType: FORM_TYPE }))
  const contentTypeVariant = fc.constantFrom('application/json; charset=utf-8', 'Application/JSON')
  const variant = fc
    .tuple(value(op.bodies[types[0]], '', mode), contentTypeVariant)
    .map(([v, contentType]): Body => ({ kind: 'json', value: v, contentType }))
  return fc.oneof(
    { weight: 10, arbitrary: fc.oneof(...documented) },
    { weight: 1, arbitrary: variant },
    { weight: 1, arbitrary: wrongForm },
    { weight: 3, arbitrary: junk },
  )
}

/** Every way of calling one operation; about 4 in 10 are valid requests (built once: building is costly). */
export function planArb(op: Operation, index: number, forced?: { caller: Caller }): fc.Arbitrary<Plan> {
  const plan = (mode: Mode) =>
    fc.record({
      op: fc.constant(index),
      caller: forced ? fc.constant(forced.caller) : callerArb,
      path: pathArb(op, mode),
      query: queryArb(op, mode),
      queryTail: mode === 'valid' ? fc.constant(null) : fc.option(fc.constantFrom(...RAW_QUERY_TAILS), { freq: 8, nil: null }),
      body: bodyArb(op, mode),
      accept: forced ? fc.constant(null) : acceptArb,
      requestId: forced ? fc.constant(null) : requestIdArb,
    })
  return forced ? plan('valid') : fc.oneof({ weight: 2, arbitrary: plan('valid') }, { weight: 3, arbitrary: plan('mixed') })
}

/** Query and path text of a generated value; arrays become repeated parameters. */
function asText(v: unknown): string {
  if (typeof v === 'string') return v
  if (v instanceof Deep) return v.text()
  if (v === null || typeof v !== 'object') return String(v)
  return jsonText(v)
}

/** JSON text of a value; deep nesting is spliced in as text so no serializer recurses through it. */
export function jsonText(v: unknown): string {
  const deep: Deep[] = []
  const text = JSON.stringify(v, (_key, item) => (item instanceof Deep ? `\u0001deep${deep.push(item) - 1}` : item)) ?? 'null'
  return text.replace(/"\\u0001deep(\d+)"/g, (_, i) => deep[Number(i)].text())
}

function formText(v: unknown): string {
  if (!v || typeof v !== 'object' || Array.isArray(v) || v instanceof Deep) return encodeLoose(asText(v))
  return Object.entries(v)
    .flatMap(([key, item]) => (Array.isArray(item) ? item : [item]).map((one) => `${encodeLoose(key)}=${encodeLoose(asText(one))}`))
    .join('&')
}

export function render(plan: Plan, op: Operation, world: World): Request {
  const resolve = (v: unknown) => world.resolve(v, plan.caller, op.path)
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const given = plan.path[name]
    // An empty segment would be another operation's URL (`/assignments/{id}` → `/assignments/`).
    return given instanceof RawSegment ? given.text : encodeLoose(asText(resolve(given))) || '%20'
  })
  const pairs = plan.query.flatMap(([name, v]) => {
    const resolved = resolve(v)
    return (Array.isArray(resolved) ? resolved : [resolved]).map((one) => `${encodeLoose(name)}=${encodeLoose(asText(one))}`)
  })
  if (plan.queryTail) pairs.push(plan.queryTail)
  const headers: Record<string, string> = {}
  const authorization = world.authorizationOf(plan.caller)
  if (authorization !== undefined) headers.authorization = authorization
  if (plan.accept) headers.accept = plan.accept
  if (plan.requestId !== null) headers['x-request-id'] = plan.requestId
  let payload: string | Buffer | undefined
  const { body } = plan
  if (body.kind === 'json' || body.kind === 'form') {
    const resolved = resolve(body.value)
    payload = body.kind === 'json' ? jsonText(resolved) : formText(resolved)
    headers['content-type'] = body.contentType
  } else if (body.kind === 'raw') {
    payload = body.raw
    if (body.contentType !== null) headers['content-type'] = body.contentType
  }
  return {
    method: op.method,
    url: pairs.length ? `${path}?${pairs.join('&')}` : path,
    headers,
    ...(payload === undefined ? {} : { payload }),
  }
}
