import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose'
import Provider from 'oidc-provider'

// A real OpenID provider (oidc-provider) on 127.0.0.1 for the single-sign-on tests: its own signing
// keys, one confidential web client, and accounts the tests add. Tokens the tests sign with a key the
// provider publishes are real tokens of that issuer.

export const WEB_CLIENT = { id: 'seaworthy-web', secret: 'web-client-secret-0123456789' }
export const CALLBACK = 'http://127.0.0.1:8000/api/v1/auth/sso/callback'

export interface SigningKey {
  kid: string
  jwk: JWK
  privateKey: CryptoKey
}

export async function newSigningKey(): Promise<SigningKey> {
  const kid = randomUUID()
  const { privateKey } = await generateKeyPair('RS256', { extractable: true })
  return { kid, privateKey, jwk: { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' } }
}

export interface Account {
  email: string
  emailVerified?: boolean
  givenName?: string
  familyName?: string
  groups?: string[]
}

export class TestProvider {
  readonly accounts = new Map<string, Account>()
  /** Requests per path, to see what the service fetched. */
  readonly hits = { discovery: 0, jwks: 0 }
  keys: SigningKey[] = []
  private handler: (req: IncomingMessage, res: ServerResponse) => void = () => {}

  private constructor(
    private readonly server: Server,
    readonly issuer: string,
  ) {}

  static async start(): Promise<TestProvider> {
    const server = createServer()
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    const provider = new TestProvider(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`)
    server.on('request', (req, res) => {
      if (req.url?.startsWith('/.well-known/openid-configuration')) provider.hits.discovery++
      if (req.url?.startsWith('/jwks')) provider.hits.jwks++
      provider.handler(req, res)
    })
    await provider.publish([await newSigningKey()])
    return provider
  }

  /** (Re)configures the provider to publish these keys, as after a key rotation; the first one signs. */
  async publish(keys: SigningKey[]): Promise<void> {
    this.keys = keys
    const oidc = new Provider(this.issuer, {
      clients: [
        {
          client_id: WEB_CLIENT.id,
          client_secret: WEB_CLIENT.secret,
          redirect_uris: [CALLBACK],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
      jwks: { keys: keys.map((k) => k.jwk) },
      findAccount: (_ctx, id) => {
        const account = this.accounts.get(id)
        return account && { accountId: id, claims: () => claimsOf(id, account) }
      },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name', 'groups'] },
      // The ID token carries the requested claims (the service reads no userinfo).
      conformIdTokenClaims: false,
      pkce: { required: () => true },
      cookies: { keys: ['test-provider-cookie-key'] },
      ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
      features: { devInteractions: { enabled: true } },
    })
    this.handler = oidc.callback()
  }

  /** An ID token of this issuer, signed with its current key unless another is given. */
  sign(claims: JWTPayload, options: { key?: SigningKey; expiresIn?: string | number; notBefore?: number } = {}): Promise<string> {
    const key = options.key ?? this.keys[0]
    const jwt = new SignJWT({ iss: this.issuer, sub: randomUUID(), ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid })
      .setIssuedAt()
      .setExpirationTime(options.expiresIn ?? '5m')
    if (options.notBefore !== undefined) jwt.setNotBefore(options.notBefore)
    return jwt.sign(key.privateKey)
  }

  async close(): Promise<void> {
    this.server.closeAllConnections()
    await new Promise((done) => this.server.close(done))
  }
}

function claimsOf(id: string, account: Account) {
  return {
    sub: id,
    email: account.email,
    email_verified: account.emailVerified ?? true,
    given_name: account.givenName,
    family_name: account.familyName,
    groups: account.groups,
  }
}

/**
 * Plays the browser at the provider: follows its redirects, signs in as `accountId` and consents on its
 * interaction pages, and stops at the redirect to our callback, whose URL it answers.
 */
export async function browseProvider(authorizationUrl: string, accountId: string): Promise<string> {
  const jar = new Map<string, string>()
  let url = authorizationUrl
  let form: URLSearchParams | undefined
  for (let step = 0; step < 20; step++) {
    const res = await fetch(url, {
      method: form ? 'POST' : 'GET',
      body: form,
      redirect: 'manual',
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
    })
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';')
      const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]
      if (value) jar.set(name, value)
      else jar.delete(name)
    }
    form = undefined
    const location = res.headers.get('location')
    if (location) {
      url = new URL(location, url).href
      if (url.startsWith(CALLBACK)) return url
      await res.arrayBuffer()
      continue
    }
    const page = await res.text()
    if (res.status !== 200) throw new Error(`provider answered ${res.status}: ${page.slice(0, 300)}`)
    // The provider's development interaction pages post back to their own URL: a login, then a consent.
    form = page.includes('name="login"')
      ? new URLSearchParams({ prompt: 'login', login: accountId, password: 'x' })
      : new URLSearchParams({ prompt: 'consent' })
  }
  throw new Error('too many redirects at the provider')
}
