import { type Case, hostileCase } from '../harness.js'
import { json, send } from '../http.js'
import { launchScorm, type ScormSession } from '../launch.js'
import type { World } from '../world.js'

// SCORM commits of bad data (DECISIONS §13.7): text with NUL or a lone surrogate is stored with U+FFFD
// in its place (read back from the next session's runtime), oversized suspend_data and values of the
// wrong type are refused with SCORM's own error answer; never a 5xx.

const group = 'scorm'
/** SCORM 1.2's limit on cmi.suspend_data. */
const SUSPEND_DATA_MAX = 4096

const scormUrl = (world: World, session: ScormSession, what: 'commit' | 'runtime') =>
  `${world.service.baseUrl}/api/v1/learn/scorm/sessions/${session.sessionId}/${what}`

/** scorm-again's commit: the JSON as text, so that escapes such as a lone surrogate go as written. */
const commit = (world: World, session: ScormSession, bodyText: string, signal: AbortSignal) =>
  send(scormUrl(world, session, 'commit'), {
    method: 'POST',
    headers: { authorization: session.auth, 'content-type': 'application/json', origin: world.service.contentUrl },
    body: bodyText,
    signal,
  })

const launch = (world: World) => launchScorm(world, world.crewA.api, world.registrations.a.scorm)

/** Commits `suspendJson` (JSON text of a string) as the final commit, then reads it back from the next session. */
function storedReplaced(name: string, suspendJson: string, expected: string): Case {
  return hostileCase({
    group,
    name,
    prepare: launch,
    run: async (world, session: ScormSession, signal) => {
      const body = `{"cmi":{"core":{"lesson_status":"incomplete","lesson_location":"p1","exit":"suspend"},"suspend_data":${suspendJson}},"terminate":true}`
      const answer = await commit(world, session, body, signal)
      if (answer.status !== 200 || json(answer)?.result !== 'true') return `commit answered ${answer.status} ${answer.text.slice(0, 200)}`
      const next = await launch(world)
      const runtime = await send(scormUrl(world, next, 'runtime'), { headers: { authorization: next.auth }, signal })
      const kept = JSON.stringify(json(runtime)?.cmi ?? null)
      return kept.includes(JSON.stringify(expected).slice(1, -1))
        ? null
        : `the next session's runtime (${runtime.status}) has ${kept.slice(0, 200)}`
    },
  })
}

/** A commit SCORM refuses: HTTP 200 with `{"result":"false","errorCode":4xx}`. */
function refused(name: string, cmiJson: string): Case {
  return hostileCase({
    group,
    name,
    prepare: launch,
    run: async (world, session: ScormSession, signal) => {
      const answer = await commit(world, session, `{"cmi":${cmiJson}}`, signal)
      const body = json(answer)
      const ok = answer.status === 200 && body?.result === 'false' && body.errorCode >= 400 && body.errorCode < 500
      return ok ? null : `answered ${answer.status} ${answer.text.slice(0, 200)} (expected 200 {"result":"false","errorCode":4xx})`
    },
  })
}

export const scormCases: Case[] = [
  storedReplaced('NUL in suspend_data: stored replaced', '"before\\u0000after"', 'before\uFFFDafter'),
  storedReplaced('a lone surrogate in suspend_data: stored replaced', '"before\\ud800after"', 'before\uFFFDafter'),
  refused(`suspend_data of ${SUSPEND_DATA_MAX + 1} characters: SCORM's error`, `{"suspend_data":"${'x'.repeat(SUSPEND_DATA_MAX + 1)}"}`),
  refused("a score of the wrong type: SCORM's error", '{"core":{"score":{"raw":"ninety"}}}'),
  refused("suspend_data of the wrong type: SCORM's error", '{"suspend_data":{"not":"text"}}'),
]
