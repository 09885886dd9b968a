import type { Db } from '../../../../db/database.js'
import { contentPaths } from '../../content/content.paths.js'
import { writeLms } from '../../launch/registration-run.js'
import type { AuRow } from '../../launch/sessions.queries.js'
import type { LaunchDeps, LaunchStep, Run } from '../../launch/standard.js'
import { writeStateDocument } from '../../xapi/documents.js'
import { contextTemplate, EXTENSION, LAUNCH_DATA, lmsStatement, statementContext } from './cmi5.js'

/** The AU URL with cmi5's launch parameters (§8.1), each URL-encoded, after any query it already has. */
function cmi5Url(base: string, params: Record<string, string>) {
  const query = Object.entries(params)
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join('&')
  const [path, fragment] = base.split('#', 2)
  return `${path}${path.includes('?') ? '&' : '?'}${query}${fragment === undefined ? '' : `#${fragment}`}`
}

/** cmi5 before launch (§10, §9.3.1): LMS.LaunchData, then `launched`; answers the launch URL, which names the one-time fetch. */
export async function prepareCmi5(trx: Db, { config }: LaunchDeps, run: Run, au: AuRow, s: LaunchStep) {
  const orgId = run.reg.organization_id
  const auUrl = URL.canParse(au.url) ? au.url : contentPaths(config).url(s.grant, au.url)
  const launchData = {
    contextTemplate: contextTemplate(s.sessionId, au.publisher_id),
    launchMode: s.launchMode,
    moveOn: au.moveOn,
    ...(au.mastery_score !== null && { masteryScore: au.mastery_score }),
    ...(au.launch_parameters !== null && { launchParameters: au.launch_parameters }),
    ...(au.entitlement_key !== null && { entitlementKey: { courseStructure: au.entitlement_key } }),
    ...(s.returnUrl && { returnURL: s.returnUrl }),
  }
  await writeStateDocument(trx, orgId, {
    activityId: s.activityId,
    agent: run.learner,
    registration: run.reg.id,
    stateId: LAUNCH_DATA,
    content: launchData,
  })
  const extensions = {
    [EXTENSION.launchMode]: s.launchMode,
    [EXTENSION.launchUrl]: auUrl,
    [EXTENSION.moveOn]: au.moveOn,
    ...(au.mastery_score !== null && { [EXTENSION.masteryScore]: au.mastery_score }),
    ...(au.launch_parameters !== null && { [EXTENSION.launchParameters]: au.launch_parameters }),
  }
  await writeLms(trx, config, orgId, [
    lmsStatement(statementContext(run, s.sessionId, au), 'launched', { id: s.activityId }, { extensions }),
  ])
  return cmi5Url(auUrl, {
    endpoint: `${config.publicUrl}/api/v1/learn/xapi/`,
    fetch: `${config.publicUrl}/api/v1/learn/cmi5/fetch/${s.sessionId}.${s.secret}`,
    actor: JSON.stringify(run.learner),
    registration: run.reg.id,
    activityId: s.activityId,
  })
}
