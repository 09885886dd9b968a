import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose'

// OpenID Connect as a relying party: discovery, ID token verification and the code exchange.
// jose does the cryptography and the JWKS cache; the rest is two HTTP requests (docs/decisions/accounts.md, accounts-11).

/** Why an identity was refused: for the log only, never shown to the caller. */
export class OidcError extends Error {}

export interface Discovery {
  issuer: string
  authorizationEndpoint: string
  tokenEndpoint: string
  jwksUri: string
  tokenAuthMethods: string[]
}

export interface CodeGrant {
  code: string
  codeVerifier: string
  redirectUri: string
  clientId: string
  clientSecret: string | null
}

export interface Oidc {
  discover(issuer: string): Promise<Discovery>
  /** Signature (a key of the issuer's JWKS), `iss`, `aud` (any of `audience`), `exp`, `nbf`, and `nonce` when given. */
  verifyIdToken(token: string, expected: { issuer: string; audience: string[]; nonce?: string }): Promise<JWTPayload>
  /** Redeems an authorization code at the issuer's token endpoint; answers the ID token. */
  redeemCode(issuer: string, grant: CodeGrant): Promise<string>
}

const DISCOVERY_TTL_MS = 3600_000
const FETCH_TIMEOUT_MS = 5000
const CLOCK_TOLERANCE_SECONDS = 30
// Asymmetric algorithms only: a key the issuer publishes can never be a shared secret.
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519']

export function createOidc(options: { allowHttp: boolean; jwksCooldownSeconds: number }): Oidc {
  const discoveries = new Map<string, { expires: number; doc: Promise<Discovery> }>()
  const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>()

  const endpoint = (value: unknown, what: string): string => {
    const url = typeof value === 'string' && URL.canParse(value) ? new URL(value) : null
    if (url?.protocol !== 'https:' && !(options.allowHttp && url?.protocol === 'http:')) {
      throw new OidcError(`discovery document: ${what} is not an https URL`)
    }
    return url.href
  }

  async function fetchJson(url: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
    const res = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) })
    if (!res.ok) throw new OidcError(`${url} answered ${res.status}`)
    const body = await res.json()
    if (body === null || typeof body !== 'object') throw new OidcError(`${url} answered no JSON object`)
    return body
  }

  async function fetchDiscovery(issuer: string): Promise<Discovery> {
    const doc = await fetchJson(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`)
    if (doc.issuer !== issuer) throw new OidcError(`discovery document names another issuer: ${String(doc.issuer)}`)
    const methods = doc.token_endpoint_auth_methods_supported
    return {
      issuer,
      authorizationEndpoint: endpoint(doc.authorization_endpoint, 'authorization_endpoint'),
      tokenEndpoint: endpoint(doc.token_endpoint, 'token_endpoint'),
      jwksUri: endpoint(doc.jwks_uri, 'jwks_uri'),
      // The default the discovery specification gives when the list is absent.
      tokenAuthMethods: Array.isArray(methods) ? methods.map(String) : ['client_secret_basic'],
    }
  }

  // Cached per issuer; a failed fetch is forgotten at once so the next sign-in tries again.
  function discover(issuer: string): Promise<Discovery> {
    const cached = discoveries.get(issuer)
    if (cached && cached.expires > Date.now()) return cached.doc
    const entry = { expires: Date.now() + DISCOVERY_TTL_MS, doc: fetchDiscovery(issuer) }
    discoveries.set(issuer, entry)
    entry.doc.catch(() => {
      if (discoveries.get(issuer) === entry) discoveries.delete(issuer)
    })
    return entry.doc
  }

  // jose keeps the keys and refetches once on an unknown key id, at most once per cooldown.
  function keySet(jwksUri: string) {
    let set = keySets.get(jwksUri)
    if (!set) {
      set = createRemoteJWKSet(new URL(jwksUri), {
        cooldownDuration: options.jwksCooldownSeconds * 1000,
        timeoutDuration: FETCH_TIMEOUT_MS,
      })
      keySets.set(jwksUri, set)
    }
    return set
  }

  return {
    discover,

    async verifyIdToken(token, expected) {
      const { jwksUri } = await discover(expected.issuer)
      const { payload } = await jwtVerify(token, keySet(jwksUri), {
        issuer: expected.issuer,
        audience: expected.audience,
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['exp'],
      })
      if (expected.nonce !== undefined && payload.nonce !== expected.nonce) throw new OidcError('nonce does not match')
      return payload
    },

    async redeemCode(issuer, grant) {
      const { tokenEndpoint, tokenAuthMethods } = await discover(issuer)
      const body = new URLSearchParams({
        grant_type: 'authorization_code',
        code: grant.code,
        redirect_uri: grant.redirectUri,
        code_verifier: grant.codeVerifier,
      })
      const headers: Record<string, string> = { accept: 'application/json' }
      if (grant.clientSecret && tokenAuthMethods.includes('client_secret_basic')) {
        headers.authorization = `Basic ${basicCredentials(grant.clientId, grant.clientSecret)}`
      } else {
        body.set('client_id', grant.clientId)
        if (grant.clientSecret) body.set('client_secret', grant.clientSecret)
      }
      const tokens = await fetchJson(tokenEndpoint, { method: 'POST', headers, body })
      if (typeof tokens.id_token !== 'string') throw new OidcError('the token endpoint returned no id_token')
      return tokens.id_token
    },
  }
}

// RFC 6749 §2.3.1: both parts form-encoded before they are joined and base64-encoded.
function basicCredentials(clientId: string, secret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+')
  return Buffer.from(`${encode(clientId)}:${encode(secret)}`).toString('base64')
}
