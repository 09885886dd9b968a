import { createHash } from 'node:crypto'
import type { Actor } from '../../../lib/access.js'
import { conflict } from '../../../lib/errors.js'
import { contentPaths, PLAYER_PREFIX } from '../content/content.paths.js'
import { launch } from '../launch/launch.service.js'
import type { LaunchDeps } from '../launch/standard.js'
import { PLAYER_ASSETS_PREFIX, playerFiles } from '../standards/scorm/player.routes.js'
import { scorm } from '../standards/scorm/scorm.standard.js'
import { offlineAu, sessionFiles } from './offline.queries.js'
import type { OfflineCreate, OfflineFile, OfflineLaunch } from './offline.schemas.js'

const DAY = 86_400_000
/** DECISIONS §16: a session's queued records are accepted until its expiry plus 7 days. */
const ACCEPTED_AFTER_EXPIRY_DAYS = 7

const sha256 = (body: string | Buffer) => createHash('sha256').update(body).digest('hex')

/**
 * A launch for offline play (DECISIONS §16): the §13.4 launch with a session of OFFLINE_SESSION_DAYS, and
 * every file the device needs to play it with no link: the package version's files inside the session's
 * content path and, for SCORM, the player's page and scripts. An AU hosted elsewhere, or a version
 * imported before file lists were kept, cannot be taken offline (409).
 */
export async function takeOffline(
  deps: LaunchDeps,
  actor: Actor,
  registrationId: string,
  assigneeId: string | undefined,
  body: OfflineCreate,
): Promise<OfflineLaunch> {
  const au = await offlineAu(deps.db, actor.orgId, registrationId, body.auIndex, assigneeId)
  if (au && URL.canParse(au.url)) throw conflict('This AU is hosted outside the course package: it plays online only')
  if (au && Number(au.files) === 0)
    throw conflict('This course version lists no files to download: import its package again to take it offline')
  // No row: the launch answers why (no such registration, no package, no such AU).
  const expiresAt = new Date(Date.now() + deps.config.offlineSessionDays * DAY)
  const window = { expiresAt, acceptsUntil: new Date(expiresAt.getTime() + ACCEPTED_AFTER_EXPIRY_DAYS * DAY) }
  const launched = await launch(
    deps,
    actor,
    registrationId,
    assigneeId,
    { auIndex: body.auIndex, launchMode: 'Normal', returnUrl: body.returnUrl },
    window,
  )
  const rows = await sessionFiles(deps.db, actor.orgId, launched.sessionId)
  const grant = {
    orgId: actor.orgId,
    packageId: rows[0]?.package_id ?? '',
    sessionId: launched.sessionId,
    expiresAt: new Date(launched.expiresAt),
  }
  const paths = contentPaths(deps.config)
  const files: OfflineFile[] = rows.map((row) => ({ url: paths.url(grant, row.path), bytes: row.bytes, sha256: row.sha256 }))
  if (scorm.ids.includes(launched.standard)) files.push(...playerDownloads(deps.config.contentOrigin, launched.url))
  return { ...launched, files, totalBytes: files.reduce((total, file) => total + file.bytes, 0) }
}

/** The SCORM player's page (the launch URL without its fragment, which holds the credential) and its scripts. */
function playerDownloads(contentOrigin: string, launchUrl: string): OfflineFile[] {
  const { html, assets } = playerFiles()
  const page = launchUrl.split('#', 1)[0]
  if (!page.startsWith(`${contentOrigin}${PLAYER_PREFIX}/`)) return []
  return [
    { url: page, bytes: Buffer.byteLength(html), sha256: sha256(html) },
    ...assets.map((asset) => ({
      url: `${contentOrigin}${PLAYER_ASSETS_PREFIX}/${asset.path}`,
      bytes: Buffer.byteLength(asset.body),
      sha256: sha256(asset.body),
    })),
  ]
}
