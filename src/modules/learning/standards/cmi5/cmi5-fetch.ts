import type { Db } from '../../../../db/database.js'
import { newSecret } from '../../launch/registration-run.js'
import { sameHash, sessionCredential, UUID } from '../../launch/session-credentials.js'
import { findSession, spendFetch } from '../../launch/sessions.queries.js'
import { hashSecret } from '../../xapi/auth.js'

/** cmi5's fetch error body (§8.2.3): `1` used or expired, `2` security, `3` application; HTTP 200 all the same. */
const fetchError = (code: '1' | '2' | '3', text: string) => ({ 'error-code': code, 'error-text': text })

/**
 * The one-time fetch URL (cmi5 §8.2): the first POST with the session's fetch secret answers the
 * session credential as `auth-token` (HTTP Basic); every later call answers cmi5's error body.
 */
export async function fetchAuthToken(db: Db, token: string) {
  const [sessionId, secret, extra] = token.split('.')
  if (!sessionId || !secret || extra !== undefined || !UUID.test(sessionId)) return fetchError('2', 'Not a fetch URL of this LMS')
  const credential = newSecret()
  const spent = await spendFetch(db, sessionId.toLowerCase(), hashSecret(secret), hashSecret(credential))
  if (spent) return { 'auth-token': sessionCredential(spent.id, credential) }
  const session = await findSession(db, sessionId.toLowerCase())
  if (!session || !sameHash(secret, session.fetch_hash)) return fetchError('2', 'Not a fetch URL of this LMS')
  return fetchError('1', session.fetched ? 'The fetch URL has already been used' : 'The launch session has ended')
}
