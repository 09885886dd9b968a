import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { CMI5_RULES } from '../../../../../src/modules/learning/standards/cmi5/cmi5-rule-table.js'
import { type Started, type Start, sendRaw, useCmi5Aus } from '../../../../fixtures/cmi5-au.js'
import { refusal, statementOf } from '../../../../fixtures/cmi5-client.js'
import type { packagedCourse } from '../../../../fixtures/launch.js'

// Every rule of cmi5's statement rule table broken once by an AU that @xapi/cmi5 runs over real HTTP: the
// LRS refuses the statement (403 naming the rule; xAPI's own rules 400) and stores nothing of it.

type Json = Record<string, any>
const { started, stored, again, registration } = useCmi5Aus()

/** A step in a session of the registration before the one that breaks the rule. */
const inSessionBefore = (step: (s: Started) => Promise<unknown>) => async (s: Started) => {
  await step(s)
  await again(s)
}
const send = (s: Started, statement: Json) => s.au.sendXapiStatement(statement)
const made = (s: Started, verb: string, changes: Json = {}) => ({ ...statementOf(s.au, verb), ...changes })
const withResult = (s: Started, verb: string, result: Json) => ({ ...statementOf(s.au, verb), result })
const context = (s: Started, verb: string, change: (context: Json) => void) => {
  const statement = statementOf(s.au, verb)
  change(statement.context)
  return statement
}
const transform = (change: (statement: Json) => void) => ({
  transform: (statement: Json) => {
    const copy = structuredClone(statement)
    change(copy)
    return copy
  },
})
const ANSWERED = 'http://adlnet.gov/expapi/verbs/answered'
const MOVEON = { id: 'https://w3id.org/xapi/cmi5/context/categories/moveon' }
const CMI5 = { id: 'https://w3id.org/xapi/cmi5/context/categories/cmi5' }
const SESSION_ID = 'https://w3id.org/xapi/cmi5/context/extensions/sessionid'
const MASTERY = 'https://w3id.org/xapi/cmi5/context/extensions/masteryscore'

interface Case {
  rule: string
  aus?: Parameters<typeof packagedCourse>[2]
  launchMode?: string
  start?: Start
  status?: 400 | 403
  before?: (s: Started) => Promise<unknown>
  breaking: (s: Started) => Promise<unknown>
}

const cases: Case[] = [
  {
    rule: '6.3.0.0-1',
    breaking: async (s) => {
      const initialized = (await stored(s.registrationId))[1].id
      return send(s, made(s, 'http://adlnet.gov/expapi/verbs/voided', { object: { objectType: 'StatementRef', id: initialized } }))
    },
  },
  { rule: '9.1.0.0-1', breaking: (s) => send(s, made(s, ANSWERED, { id: undefined })) },
  { rule: '9.7.0.0-1', breaking: (s) => send(s, made(s, ANSWERED, { timestamp: undefined })) },
  { rule: '9.7.0.0-2', breaking: (s) => send(s, made(s, ANSWERED, { timestamp: '2026-10-09T10:00:00+02:00' })) },
  {
    rule: '9.2.0.0-2',
    breaking: (s) => send(s, made(s, 'completed', { actor: { ...s.au.getLaunchParameters().actor, objectType: 'Group' } })),
  },
  {
    rule: '9.6.3.1-4',
    breaking: (s) =>
      send(
        s,
        context(s, ANSWERED, (c) => delete c.extensions[SESSION_ID]),
      ),
  },
  {
    rule: '9.3.0.0-5',
    breaking: (s) => s.au.xapi.sendStatements({ statements: [statementOf(s.au, 'terminated'), statementOf(s.au, ANSWERED)] }),
  },
  { rule: '9.3.0.0-4', start: 'read', breaking: (s) => s.au.complete() },
  {
    rule: '10.2.1.0-4',
    start: 'fetched',
    breaking: (s) => {
      const { actor, registration, activityId } = s.au.getLaunchParameters()
      const category = [CMI5]
      const context = { registration, contextActivities: { category }, extensions: { [SESSION_ID]: s.sessionId } }
      const verb = { id: 'http://adlnet.gov/expapi/verbs/initialized' }
      return sendRaw(s, { id: randomUUID(), actor, verb, object: { id: activityId }, context, timestamp: new Date().toISOString() })
    },
  },
  {
    rule: '9.6.2.2-2',
    breaking: (s) =>
      send(
        s,
        context(s, ANSWERED, (c) => (c.contextActivities.category = [MOVEON])),
      ),
  },
  {
    rule: '9.3.0.0-1',
    breaking: (s) =>
      send(
        s,
        context(s, ANSWERED, (c) => (c.contextActivities.category = [CMI5])),
      ),
  },
  { rule: '9.6.2.0-1', breaking: (s) => s.au.complete(transform((st) => delete st.context.contextActivities.grouping)) },
  { rule: '8.1.5.0-6', breaking: (s) => s.au.complete(transform((st) => (st.object.id = 'https://example.com/another-au'))) },
  { rule: '10.2.2.0-2', launchMode: 'Browse', breaking: (s) => send(s, statementOf(s.au, 'completed')) },
  { rule: '10.2.2.0-3', launchMode: 'Review', breaking: (s) => send(s, statementOf(s.au, 'passed')) },
  {
    rule: '9.5.2.0-1',
    breaking: (s) =>
      s.au.pass(
        0.9,
        transform((st) => delete st.result.success),
      ),
  },
  {
    rule: '9.5.2.0-2',
    breaking: (s) =>
      s.au.fail(
        undefined,
        transform((st) => (st.result.success = true)),
      ),
  },
  { rule: '9.5.2.0-3', breaking: (s) => send(s, withResult(s, 'terminated', { success: true, duration: 'PT1M' })) },
  { rule: '9.5.3.0-1', breaking: (s) => s.au.complete(transform((st) => (st.result.completion = false))) },
  {
    rule: '9.5.3.0-2',
    breaking: (s) =>
      s.au.pass(
        0.9,
        transform((st) => (st.result.completion = true)),
      ),
  },
  { rule: '9.6.2.2-1', breaking: (s) => s.au.complete(transform((st) => (st.context.contextActivities.category = [CMI5]))) },
  { rule: '9.5.1.0-2', breaking: (s) => s.au.complete(transform((st) => (st.result.score = { scaled: 1 }))) },
  { rule: '9.5.1.0-3', breaking: (s) => s.au.pass({ scaled: 0.9, raw: 9 }) },
  { rule: '9.5.1', breaking: (s) => s.au.fail(-0.5) },
  { rule: '9.5.4.1-1', breaking: (s) => send(s, withResult(s, 'terminated', {})) },
  { rule: '9.5.4.1-2', breaking: (s) => s.au.complete(transform((st) => delete st.result.duration)) },
  {
    rule: '9.5.4.1-3',
    breaking: (s) =>
      s.au.pass(
        0.9,
        transform((st) => delete st.result.duration),
      ),
  },
  {
    rule: '9.5.4.1-4',
    breaking: (s) =>
      s.au.fail(
        0.5,
        transform((st) => delete st.result.duration),
      ),
  },
  {
    rule: '9.6.3.2-2',
    breaking: (s) =>
      s.au.pass(
        0.9,
        transform((st) => delete st.context.extensions[MASTERY]),
      ),
  },
  {
    rule: '9.6.3.2-2',
    breaking: (s) =>
      s.au.pass(
        0.9,
        transform((st) => (st.context.extensions[MASTERY] = 0.5)),
      ),
  },
  { rule: '9.3.4.0-2', breaking: (s) => send(s, withScore(s, 'passed', 0.5)) },
  { rule: '9.3.5.0-2', breaking: (s) => s.au.fail(0.8) },
  { rule: '9.3.0.0-2', breaking: (s) => send(s, statementOf(s.au, 'initialized')) },
  { rule: '9.3.0.0-3', before: (s) => s.au.pass(0.9), breaking: (s) => s.au.fail() },
  { rule: '9.3.0.0-6', before: inSessionBefore((s) => s.au.complete()), breaking: (s) => s.au.complete() },
  { rule: '9.3.0.0-7', before: inSessionBefore((s) => s.au.pass(0.9)), breaking: (s) => s.au.pass(0.9) },
  { rule: '9.3.0.0-8', before: inSessionBefore((s) => s.au.pass(0.9)), breaking: (s) => s.au.fail() },
  { rule: 'xAPI: score.scaled within −1..1', status: 400, breaking: (s) => s.au.fail(-1.5) },
]

function withScore(s: Started, verb: string, scaled: number) {
  const statement = statementOf(s.au, verb)
  statement.result.score = { scaled }
  statement.context.extensions[MASTERY] = 0.8
  return statement
}

describe("cmi5's statement rules, each broken by an AU over HTTP", () => {
  it('has a breaking case for every rule of the table', () => {
    expect([...new Set(cases.map((c) => c.rule).filter((rule) => !rule.startsWith('xAPI')))].sort()).toEqual(
      CMI5_RULES.map((r) => r.id).sort(),
    )
  })

  it.each(cases)('$rule: refused, nothing stored', async (c) => {
    const s = await started(
      c.aus ?? [{ moveOn: 'CompletedAndPassed', masteryScore: 0.8 }],
      c.launchMode ?? 'Normal',
      c.start ?? 'initialized',
    )
    await c.before?.(s)
    const before = await stored(s.registrationId)
    const refused = await refusal(c.breaking(s))
    expect(refused).toMatchObject({ status: c.status ?? 403 })
    if (!c.status) expect(refused?.message).toContain(`(cmi5 ${c.rule})`)
    expect(await stored(s.registrationId)).toEqual(before)
  })
})

describe('what cmi5 allows', () => {
  it('takes a passed without a score, and so without the masteryScore extension, from an AU with a masteryScore', async () => {
    const s = await started([{ moveOn: 'Passed', masteryScore: 0.8 }], 'Normal', 'initialized')
    expect(await refusal(send(s, statementOf(s.au, 'passed')))).toBeNull()
    expect(await registration(s.registrationId)).toMatchObject({ status: 'passed' })
  })

  it('takes a failed without a score, and one with a score below the masteryScore and the extension', async () => {
    const s = await started([{ moveOn: 'Passed', masteryScore: 0.8 }], 'Normal', 'initialized')
    expect(await refusal(s.au.fail())).toBeNull()
    await again(s)
    expect(await refusal(s.au.fail(0.5))).toBeNull()
    expect(await registration(s.registrationId)).toMatchObject({ status: 'failed' })
  })

  it("takes allowed statements as ADL's AUs send them: progress, answered, a video profile's initialized", async () => {
    const s = await started([{ moveOn: 'Completed' }], 'Normal', 'initialized')
    expect(await refusal(s.au.progress(50))).toBeNull()
    expect(await refusal(s.au.interactionTrueFalse('quiz', 'q1', true, true))).toBeNull()
    expect(await refusal(send(s, statementOf(s.au, 'http://adlnet.gov/expapi/verbs/initialized')))).toBeNull()
    expect(await refusal(s.au.complete())).toBeNull()
    expect(await refusal(s.au.terminate())).toBeNull()
    const verbs = (await stored(s.registrationId)).map((row) => row.verb_id.split('/').at(-1))
    expect(verbs).toEqual(['launched', 'initialized', 'progressed', 'answered', 'initialized', 'completed', 'satisfied', 'terminated'])
  })
})
