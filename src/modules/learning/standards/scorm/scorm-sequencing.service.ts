import { randomUUID } from 'node:crypto'
import type { Db } from '../../../../db/database.js'
import { AppError, invalid } from '../../../../lib/errors.js'
import { compileSchema } from '../../../../lib/validation.js'
import { auActivityId, lockStep, newSecret } from '../../launch/registration-run.js'
import { credentialSession } from '../../launch/session-credentials.js'
import { closedToRecords, insertSession, updateSession } from '../../launch/sessions.queries.js'
import type { LaunchDeps, Run } from '../../launch/standard.js'
import type { ActivityNode } from '../../packages/package-model.js'
import { hashSecret } from '../../xapi/auth.js'
import { type ScormSequencing, SequencingStep, type SequencingStepAnswer } from './scorm.schemas.js'
import { packageTree, saveSequencingState, sequencingState } from './scorm-sequencing.queries.js'

// One launch plays a whole SCORM 2004 course (DECISIONS §13.6): scorm-again's sequencing runs in the
// player on the package's activity tree; the service keeps where the course was left and gives each SCO
// the player delivers a session of its own, so each SCO keeps its own cmi, suspend data and result.

const validStep = compileSchema(SequencingStep, false)

/** The step's body, read as text like every body of the player's API (422 when it is not one). */
export function parseStep(body: unknown): SequencingStep {
  let parsed: unknown
  try {
    parsed = JSON.parse(String(body))
  } catch {
    throw invalid(['body'], 'The body is not JSON')
  }
  if (!validStep(parsed)) throw invalid(['body'], 'The body is not {state, sharedData, deliver?}')
  return parsed as SequencingStep
}

/** A SCORM 2004 course of several SCOs with an activity tree plays with sequencing; null for any other. */
export async function sequencedTree(db: Db, run: Run): Promise<ActivityNode | null> {
  if (run.reg.standard !== 'scorm2004' || run.aus.length < 2) return null
  return packageTree(db, run.packageId)
}

/** What the player needs to sequence the course: the tree, each leaf's SCO, and where it was left. */
export async function sequencingRuntime(db: Db, run: Run, tree: ActivityNode): Promise<ScormSequencing> {
  const byId = new Map(run.aus.map((au) => [au.publisher_id, au]))
  const items: ScormSequencing['items'] = []
  const walk = (node: ActivityNode) => {
    const au = byId.get(node.id)
    if (au && !node.children?.length) items.push({ activityId: node.id, auIndex: au.au_index, url: au.url, asset: au.scorm_asset })
    for (const child of node.children ?? []) walk(child)
  }
  walk(tree)
  const kept = await sequencingState(db, run.reg.organization_id, run.reg.id)
  return { activityTree: tree, items, state: kept?.state ?? null, sharedData: kept?.shared_data ?? {} }
}

/**
 * A step of the sequencing in the player, with the credential of the SCO's session it comes from (ended by
 * its Terminate or still open: the final commit may still be on its way): keeps the sequencing state, and
 * when the player delivers a SCO, gives it a session. The launch's first session, which no SCO has used
 * (the player says so: a final commit may still be on its way), becomes the delivered SCO's; any later delivery opens a session of its own in the same launch window.
 */
export async function sequencingStep(
  deps: LaunchDeps,
  sessionId: string,
  authorization: string | undefined,
  body: SequencingStep,
): Promise<SequencingStepAnswer> {
  const found = await credentialSession(deps.db, authorization, sessionId)
  if (!found) throw new AppError(401, 'Not this session’s credential', { 'www-authenticate': 'Basic realm="launch session"' })
  if (closedToRecords(found) || (found.ended_at && found.ended_by !== 'terminated'))
    throw new AppError(403, 'This launch session has ended; launch the course again')
  return deps.db.transaction().execute(async (trx) => {
    const { run, session } = await lockStep(trx, deps, found)
    if (!(await sequencedTree(trx, run))) throw new AppError(409, 'This course does not play with sequencing')
    await saveSequencingState(trx, run.reg.organization_id, run.reg.id, body.state, body.sharedData)
    if (body.deliver === undefined) return {}
    const au = run.aus[body.deliver]
    if (!au) throw invalid(['body', 'deliver'], `This course has ${run.aus.length} SCOs: 0 to ${run.aus.length - 1}`)
    const activityId = auActivityId(deps.config.publicUrl, run.reg.id, au.au_index)
    // Found by its credential above: a session is never deleted.
    const current = session!
    if (body.fresh && !current.ended_at && !current.initialized) {
      await updateSession(trx, current.id, { au_index: au.au_index, activity_id: activityId })
      return { sessionId: current.id }
    }
    const secret = newSecret()
    const next = await insertSession(trx, {
      id: randomUUID(),
      organization_id: run.reg.organization_id,
      registration_id: run.reg.id,
      package_id: run.packageId,
      au_index: au.au_index,
      launch_mode: current.launch_mode,
      activity_id: activityId,
      secret_hash: hashSecret(secret),
      fetch_hash: null,
      expires_at: current.expires_at,
      accepts_until: current.accepts_until,
    })
    return { sessionId: next.id, secret }
  })
}
