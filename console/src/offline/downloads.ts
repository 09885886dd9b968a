import type { SeaworthyClient } from '../../../client/index.js'
import { unwrap } from '../api.js'
import { contentHost, type HostRecord } from './content-host.js'
import { type Download, downloadsOf, enqueue, saveDownload } from './store.js'

// Courses taken offline (DECISIONS §16). The service launches a long session with its file list; this side
// prepares what the course will ask of the service (cmi5's token and launch data, SCORM's starting runtime)
// while the link is there, and the content origin's host keeps the files and that answer book.

const XAPI_HEADERS = { 'x-experience-api-version': '1.0.3' }

async function getJson(url: string, init: RequestInit): Promise<unknown> {
  const response = await fetch(url, init)
  if (!response.ok) throw new Error(`The service answered ${response.status}`)
  return response.json()
}

/** cmi5: the one-time fetch URL's token, and the documents an AU reads at start (LMS.LaunchData, learner preferences). */
async function prepareCmi5(url: URL) {
  const params = url.searchParams
  const endpoint = (params.get('endpoint') ?? '').replace(/\/?$/, '/')
  const fetched = (await getJson(params.get('fetch') ?? '', { method: 'POST' })) as { 'auth-token'?: string; 'error-text'?: string }
  const token = fetched['auth-token']
  if (!token) throw new Error(fetched['error-text'] ?? 'The course could not be prepared')
  const headers = { ...XAPI_HEADERS, authorization: `Basic ${token}` }
  const state = new URLSearchParams({
    stateId: 'LMS.LaunchData',
    activityId: params.get('activityId') ?? '',
    agent: params.get('actor') ?? '',
    registration: params.get('registration') ?? '',
  })
  const launchData = await getJson(`${endpoint}activities/state?${state}`, { headers })
  const docs: Record<string, { type: string; body: string; version: number }> = {
    'activities/state LMS.LaunchData': { type: 'application/json', body: JSON.stringify(launchData), version: 1 },
  }
  const profile = new URLSearchParams({ agent: params.get('actor') ?? '', profileId: 'cmi5LearnerPreferences' })
  const preferences = await fetch(`${endpoint}agents/profile?${profile}`, { headers })
  if (preferences.ok)
    docs['agents/profile cmi5LearnerPreferences'] = { type: 'application/json', body: await preferences.text(), version: 1 }
  return { credential: token, session: { auth: token, docs } }
}

/** SCORM: the session's credential from the launch URL's fragment, and the runtime the player starts from. */
async function prepareScorm(url: URL) {
  const fragment = new URLSearchParams(url.hash.slice(1))
  const sessionId = fragment.get('session') ?? ''
  const credential = btoa(`session.${sessionId}:${fragment.get('secret') ?? ''}`)
  const runtime = await getJson(`${fragment.get('endpoint')}/api/v1/learn/scorm/sessions/${encodeURIComponent(sessionId)}/runtime`, {
    headers: { authorization: `Basic ${credential}` },
  })
  return { credential, session: { auth: credential, runtime } }
}

/** Launches the AU for offline play and records it on the device, before any file is fetched. */
export async function takeOffline(
  api: SeaworthyClient,
  userId: string,
  registrationId: string,
  auIndex: number,
  title: string,
  returnUrl: string,
): Promise<Download> {
  const launched = await unwrap(
    api.POST('/api/v1/learn/registrations/{registration_id}/offline', {
      params: { path: { registration_id: registrationId } },
      body: { auIndex, returnUrl },
    }),
  )
  const url = new URL(launched.url)
  const prepared = launched.standard === 'cmi5' ? await prepareCmi5(url) : await prepareScorm(url)
  const download: Download = {
    userId,
    sessionId: launched.sessionId,
    registrationId,
    auIndex,
    title,
    standard: launched.standard,
    url: launched.url,
    contentOrigin: url.origin,
    files: launched.files,
    totalBytes: launched.totalBytes,
    expiresAt: launched.expiresAt,
    credential: prepared.credential,
    session: { ...prepared.session, sessionId: launched.sessionId, standard: launched.standard, token: url.pathname.split('/')[2] },
    ready: false,
    ended: false,
    at: Date.now(),
  }
  await saveDownload(download)
  return download
}

/** Fetches the files not yet on the device (a cut download continues with what is missing). */
export async function fetchFiles(download: Download, onProgress: (progress: { bytes: number; total: number }) => void): Promise<Download> {
  const host = await contentHost(download.contentOrigin)
  await host.call('download', { files: download.files, session: download.session }, onProgress)
  const ready = { ...download, ready: true }
  await saveDownload(ready)
  return ready
}

/** Removes a download's files from the device, whole or in parts (a cut download's too), and its session. */
export async function removeDownload(download: Download): Promise<void> {
  await (await contentHost(download.contentOrigin)).call('remove', { sessionId: download.sessionId, files: download.files })
}

let collecting: Promise<void> = Promise.resolve()

/**
 * Moves the records the user's offline sessions made on the content origin into the user's queue, then lets
 * the host forget them (a record moved twice is sent twice: the service takes the replay and changes nothing).
 */
export function collect(userId: string): Promise<void> {
  collecting = collecting.then(async () => {
    const downloads = (await downloadsOf(userId)).filter((d) => d.ready)
    const origins = [...new Set(downloads.map((d) => d.contentOrigin))]
    for (const origin of origins) {
      const mine = new Map(downloads.filter((d) => d.contentOrigin === origin).map((d) => [d.sessionId, d]))
      const host = await contentHost(origin)
      const taken = await host.call<{ records: HostRecord[]; ended: string[] }>('take', { sessionIds: [...mine.keys()] })
      if (taken.records.length > 0) {
        await enqueue(
          taken.records.map((r) => ({
            userId,
            sessionId: r.sessionId,
            credential: (mine.get(r.sessionId) as Download).credential,
            kind: r.kind,
            record: r.record,
            at: r.at,
          })),
        )
        await host.call('ack', { keys: taken.records.map((r) => r.key) })
      }
      for (const sessionId of taken.ended) {
        const download = mine.get(sessionId) as Download
        if (!download.ended) await saveDownload({ ...download, ended: true })
      }
    }
  })
  const current = collecting
  collecting = collecting.catch(() => undefined)
  return current
}
