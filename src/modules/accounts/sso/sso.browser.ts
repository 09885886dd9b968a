import { createHash, randomBytes } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import { AppError, invalid, notFound } from '../../../lib/errors.js'
import { findSettings, insertLoginState, settingsByDomain, takeLoginState } from './sso.queries.js'
import type { CallbackQuery } from './sso.schemas.js'
import { startSession } from '../../../lib/sessions.js'
import { fromProvider, IdentityRejected, type SsoDeps, signIn } from './sso.service.js'

// Browser sign-in: the authorization-code flow with PKCE (S256), state and nonce. The state row is
// short-lived and single-use; a cookie holding the state ties the callback to the browser that
// started the sign-in (docs/decisions/accounts.md, accounts-15).

export const CALLBACK_PATH = '/api/v1/auth/sso/callback'
const LOGIN_TTL_SECONDS = 600
const SCOPE = 'openid email profile'
const COOKIE = 'seaworthy_sso_state'

export interface BrowserDeps extends SsoDeps {
  publicUrl: string
}

const random = () => randomBytes(32).toString('base64url')
const denied = (redirectUri: string) => `${redirectUri}#error=access_denied`

/** Where to send the browser, and the state to keep in its cookie when a sign-in was started. */
export async function startLogin(deps: BrowserDeps, domain: string, redirectUri: string, log: FastifyBaseLogger) {
  const found = await settingsByDomain(deps.db, domain)
  // No single sign-on for that domain, or a domain two organizations share: the same 404.
  if (found.length !== 1) throw notFound('Organization')
  const [settings] = found
  if (!settings.redirect_uris.includes(redirectUri)) {
    throw invalid(['query', 'redirect_uri'], "redirect_uri is not one of the organization's redirect URIs")
  }
  let authorizationEndpoint: string
  try {
    ;({ authorizationEndpoint } = await fromProvider(() => deps.oidc.discover(settings.issuer)))
  } catch (error) {
    if (!(error instanceof IdentityRejected)) throw error
    log.info({ reason: error.message }, 'single sign-on could not start')
    return { location: denied(redirectUri), state: null }
  }
  const login = { state: random(), nonce: random(), code_verifier: random(), redirect_uri: redirectUri }
  await insertLoginState(deps.db, settings.organization_id, login, LOGIN_TTL_SECONDS)
  const url = new URL(authorizationEndpoint)
  for (const [name, value] of Object.entries({
    response_type: 'code',
    client_id: settings.client_id,
    redirect_uri: deps.publicUrl + CALLBACK_PATH,
    scope: SCOPE,
    state: login.state,
    nonce: login.nonce,
    code_challenge: createHash('sha256').update(login.code_verifier).digest('base64url'),
    code_challenge_method: 'S256',
  })) {
    url.searchParams.set(name, value)
  }
  return { location: url.href, state: login.state }
}

/**
 * Finishes a sign-in: the redirect to the client with a token, or with `error=access_denied`. A state
 * that is unknown, used or expired names no client to send the browser to: a 400.
 */
export async function finishLogin(
  deps: BrowserDeps,
  query: CallbackQuery,
  cookieState: string | undefined,
  { log, id }: { log: FastifyBaseLogger; id: string },
) {
  const login = query.state ? await takeLoginState(deps.db, query.state) : undefined
  if (!login) throw new AppError(400, 'Unknown or expired sign-in request')
  try {
    if (cookieState !== login.state) throw new IdentityRejected('the sign-in was started in another browser')
    if (query.error || !query.code) throw new IdentityRejected(`the identity provider answered ${query.error ?? 'no code'}`)
    const settings = await findSettings(deps.db, login.organization_id)
    if (!settings?.redirect_uris.includes(login.redirect_uri)) throw new IdentityRejected('single sign-on changed during the sign-in')
    // RFC 9207: a provider that names itself must be the one the sign-in was sent to.
    if (query.iss !== undefined && query.iss !== settings.issuer) throw new IdentityRejected('the callback names another issuer')
    const grant = {
      code: query.code,
      codeVerifier: login.code_verifier,
      redirectUri: deps.publicUrl + CALLBACK_PATH,
      clientId: settings.client_id,
      clientSecret: settings.client_secret,
    }
    const claims = await fromProvider(async () => {
      const idToken = await deps.oidc.redeemCode(settings.issuer, grant)
      return deps.oidc.verifyIdToken(idToken, { issuer: settings.issuer, audience: [settings.client_id], nonce: login.nonce })
    })
    if (claims.azp !== undefined && claims.azp !== settings.client_id)
      throw new IdentityRejected('the ID token was issued to another client')
    const { expires_in, ...pair } = await startSession(deps, await signIn(deps.db, [settings], claims, id))
    return `${login.redirect_uri}#${new URLSearchParams({ ...pair, expires_in: String(expires_in) })}`
  } catch (error) {
    if (!(error instanceof IdentityRejected)) throw error
    log.info({ reason: error.message }, 'browser sign-in refused')
    return denied(login.redirect_uri)
  }
}

const cookiePath = `Path=${CALLBACK_PATH}; HttpOnly; SameSite=Lax`

export function stateCookie(state: string, publicUrl: string): string {
  const secure = publicUrl.startsWith('https:') ? '; Secure' : ''
  return `${COOKIE}=${state}; ${cookiePath}; Max-Age=${LOGIN_TTL_SECONDS}${secure}`
}

export const clearedStateCookie = `${COOKIE}=; ${cookiePath}; Max-Age=0`

export function readStateCookie(header: string | undefined): string | undefined {
  return header?.match(new RegExp(`(?:^|;\\s*)${COOKIE}=([^;]*)`))?.[1]
}
