import { MANAGERS, rowOwner } from '../../../lib/access.js'
import { ErrorBody } from '../../../lib/schemas.js'
import { RegistrationIdParams } from '../launch/launch.schemas.js'
import type { StandardsPlugin } from '../launch/standard.js'
import { OfflineCreate, OfflineLaunch, SyncCreate, SyncResult } from './offline.schemas.js'
import { takeOffline } from './offline.service.js'
import { sync } from './offline.sync.js'

const tags = ['offline']
// A sync body as it inflates: bounded, so a small compressed body cannot grow without end.
const SYNC_MAX_BYTES = 16 * 1_048_576

/** Courses taken offline and the console's queue after the fact (DECISIONS §16), under /api/v1/learn. */
export const offlineRoutes: StandardsPlugin = (app, deps) => {
  app.post(
    '/registrations/:registration_id/offline',
    {
      config: { roles: ['admin', 'office_admin', 'crew'] },
      schema: {
        operationId: 'takeRegistrationOffline',
        summary: 'Launch a course for offline play',
        description:
          "Crew take their own registrations offline; admins and office admins any of the organization. A launch (as `launch`) whose session lasts OFFLINE_SESSION_DAYS, with the files the device downloads to play it with no link (the package version's files in the session path; for SCORM also the player page and its scripts), each with its size and `sha256` digest. The session accepts its queued records until `expiresAt` plus 7 days. An AU hosted outside the package, or a version imported before file lists were kept: 409.",
        tags,
        params: RegistrationIdParams,
        body: OfflineCreate,
        response: { 201: OfflineLaunch, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const { actor, params, body } = request
      return reply.status(201).send(await takeOffline(deps, actor, params.registration_id, rowOwner(actor, MANAGERS), body))
    },
  )

  app.post(
    '/offline/sync',
    {
      config: { roles: ['admin', 'office_admin', 'crew'] },
      bodyLimit: SYNC_MAX_BYTES,
      // The console sends its queue gzip-compressed (Content-Encoding: gzip); uncompressed bodies are taken as well.
      decompress: {},
      schema: {
        operationId: 'syncOfflineRecords',
        summary: 'Send records made offline',
        description:
          "The console's queue, per session in the order recorded: cmi5 statements (each with its id) and SCORM commits (each with its per-session `seq`), with the session's credential. Each goes through the live path (the LRS's session rules, the SCORM commit) and is judged as if it had arrived live. State documents a course wrote (each in its last version, with the time written on the device) are stored first, as a live PUT with the session's credential: one written later than the stored document's `updated` replaces it, an older one is refused. A statement already stored, a commit at or below the last applied `seq` and a document already stored as sent are accepted and change nothing. Records a rule refuses are listed with the reason; the rest are taken. A session is accepted until its `expiresAt` plus 7 days. Crew sync their own sessions; admins and office admins any of the organization.",
        tags,
        body: SyncCreate,
        response: { 200: SyncResult },
      },
    },
    async (request) => sync(deps, request.actor, request.body),
  )
}
