import { setTimeout as sleep } from 'node:timers/promises'
import { type HealthProbe, now } from './probe.js'
import { CASE_DEADLINE_MS, HEALTHZ_LIMIT_MS } from './settings.js'
import type { World } from './world.js'

// One hostile case and how it is judged: its set-up (not judged), then what it sends, which must get its
// expected answer within CASE_DEADLINE_MS while every /healthz probe answers 200 within HEALTHZ_LIMIT_MS,
// and the service's process still running at the end.

export interface Case<Prepared = unknown> {
  group: string
  name: string
  /** Builds and uploads what the case sends: neither the deadline nor the probe judges it. */
  prepare?: (world: World) => Promise<Prepared>
  /** Sends the case: null when the answer is the expected one, else what was wrong with it. */
  run: (world: World, prepared: Prepared, signal: AbortSignal) => Promise<string | null>
}

/** Keeps each case's own type for its prepare and run. */
export const hostileCase = <Prepared>(c: Case<Prepared>): Case => c as Case

export interface Outcome {
  group: string
  name: string
  problems: string[]
  answerMs: number
  healthzMaxMs: number
  probes: number
}

/** After the deadline, what is still running is given this long to notice the abort before it is left. */
const ABANDON_AFTER_MS = 1_000
/** The probe sent after a case ends is awaited this long at most (a blocked server answers it late). */
const SETTLE_MAX_MS = 120_000

const message = (error: unknown) =>
  error instanceof Error ? `${error.message}${error.cause ? ` (${String(error.cause)})` : ''}` : String(error)

async function timed<T>(work: (signal: AbortSignal) => Promise<T>): Promise<{ value?: T; error?: string; ms: number }> {
  const started = now()
  const controller = new AbortController()
  const deadline = setTimeout(() => controller.abort(new Error(`no answer within ${CASE_DEADLINE_MS} ms`)), CASE_DEADLINE_MS)
  const abandoned = sleep(CASE_DEADLINE_MS + ABANDON_AFTER_MS, undefined, { ref: false }).then(() => {
    throw new Error(`no answer within ${CASE_DEADLINE_MS} ms`)
  })
  try {
    const value = await Promise.race([work(controller.signal), abandoned])
    return { value, ms: now() - started }
  } catch (error) {
    return { error: controller.signal.aborted ? message(controller.signal.reason) : message(error), ms: now() - started }
  } finally {
    clearTimeout(deadline)
  }
}

export async function runCase(c: Case, world: World, probe: HealthProbe): Promise<Outcome> {
  const problems: string[] = []
  let prepared: unknown
  let answerMs = 0
  try {
    prepared = await c.prepare?.(world)
  } catch (error) {
    problems.push(`could not prepare: ${message(error)}`)
  }
  // The probe is judged from the hostile request on: the set-up is ordinary traffic (sign-ins, uploads).
  const from = now()
  if (!problems.length) {
    const result = await timed((signal) => c.run(world, prepared, signal))
    answerMs = result.ms
    if (result.error !== undefined) problems.push(result.error)
    else if (result.value) problems.push(result.value)
    else if (result.ms > CASE_DEADLINE_MS) problems.push(`answered after ${Math.round(result.ms)} ms`)
  }
  const ended = now()
  await Promise.race([probe.settledAfter(ended), sleep(SETTLE_MAX_MS)])
  const seen = probe.seen(from, now())
  if (seen.maxMs >= HEALTHZ_LIMIT_MS) problems.push(`GET /healthz took ${Math.round(seen.maxMs)} ms`)
  if (seen.failures) problems.push(`GET /healthz failed ${seen.failures} of ${seen.probes} times`)
  const exited = world.service.exited
  if (exited) problems.push(`the service exited (${exited}):\n${world.service.tail()}`)
  return { group: c.group, name: c.name, problems, answerMs, healthzMaxMs: seen.maxMs, probes: seen.probes }
}

export function printTable(outcomes: Outcome[]): void {
  const rows = outcomes.map((o) => [
    o.group,
    o.name,
    o.problems.length ? 'FAIL' : 'pass',
    `${Math.round(o.answerMs)} ms`,
    `${Math.round(o.healthzMaxMs)} ms (${o.probes})`,
    (o.problems[0] ?? '').split('\n')[0].slice(0, 110),
  ])
  const head = ['group', 'case', 'result', 'answer', 'max /healthz (probes)', 'first problem']
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]))
      .join('  ')
      .trimEnd()
  console.log([line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n'))
  for (const o of outcomes.filter((x) => x.problems.length)) {
    console.log(`\nFAIL ${o.group}: ${o.name}\n${o.problems.map((p) => `  - ${p.replaceAll('\n', '\n    ')}`).join('\n')}`)
  }
}
