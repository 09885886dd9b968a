import { ADMIN } from '../../../lib/access.js'
import { IssueList, notFound } from '../../../lib/errors.js'
import { ErrorBody, NoContent } from '../../../lib/schemas.js'
import type { ModulePlugin } from '../../types.js'
import { clearedStateCookie, finishLogin, readStateCookie, startLogin, stateCookie } from './sso.browser.js'
import { deleteSettings, findSettings, type SsoColumns, saveSettings, toSsoSettings } from './sso.queries.js'
import { CallbackQuery, LoginParams, LoginQuery, Redirect, SsoSettings, SsoSettingsInput } from './sso.schemas.js'

const tags = ['single sign-on']

function toColumns(body: SsoSettingsInput): SsoColumns {
  const issues = new IssueList()
  if (!body.roleClaim && Object.keys(body.roleMap ?? {}).length > 0)
    issues.add(['body', 'roleClaim'], 'roleClaim is required with a roleMap', 'missing')
  issues.throwIfAny()
  return {
    issuer: body.issuer,
    client_id: body.clientId,
    audience: body.audience ?? null,
    role_claim: body.roleClaim ?? null,
    role_map: body.roleMap ?? {},
    default_role: body.defaultRole ?? 'crew',
    enforce: body.enforce ?? false,
    redirect_uris: body.redirectUris ?? [],
    client_secret: body.clientSecret,
  }
}

/** The organization's single-sign-on settings, under `/api/v1/shared/organization/sso` (admin). */
export const ssoSettingsRoutes: ModulePlugin = (app, { db, config }) => {
  const route = { config: { roles: ADMIN } }

  app.get(
    '',
    {
      ...route,
      schema: {
        operationId: 'getSsoSettings',
        description: 'Admins only. The client secret is never returned.',
        tags,
        summary: 'Single-sign-on settings',
        // 404 while single sign-on is off: there are no settings to show.
        response: { 200: SsoSettings, 404: ErrorBody },
      },
    },
    async (request) => {
      const row = await findSettings(db, request.actor.orgId)
      if (!row) throw notFound('Single sign-on settings')
      return toSsoSettings(row)
    },
  )

  app.put(
    '',
    {
      ...route,
      schema: {
        operationId: 'putSsoSettings',
        description: 'Admins only. Issuer, client, role mapping and whether password logins are refused (`enforce`).',
        tags,
        summary: 'Set up or change single sign-on',
        body: SsoSettingsInput(config.sso.allowHttp),
        response: { 200: SsoSettings },
      },
    },
    async ({ actor, body }) => toSsoSettings(await saveSettings(db, actor, toColumns(body))),
  )

  app.delete(
    '',
    {
      ...route,
      schema: {
        operationId: 'deleteSsoSettings',
        description: 'Admins only. Password logins work again.',
        tags,
        summary: 'Turn single sign-on off',
        response: { 204: NoContent },
      },
    },
    async ({ actor }, reply) => {
      await deleteSettings(db, actor)
      return reply.status(204).send(null)
    },
  )
}

/** Browser sign-in, under `/api/v1/auth/sso`: public, it ends with a token handed to the client. */
export const ssoBrowserRoutes: ModulePlugin = (app, { db, tokens, actors, oidc, config }) => {
  const deps = { db, tokens, actors, oidc, publicUrl: config.publicUrl, refreshTokenTtlDays: config.accounts.refreshTokenTtlDays }

  app.get(
    '/:domain/login',
    {
      config: { public: true },
      schema: {
        operationId: 'startSsoLogin',
        description:
          "Redirects to the identity provider (authorization code with PKCE, state and nonce). `redirect_uri` must be one of the SSO settings' `redirectUris`.",
        tags,
        summary: "Start a browser sign-in with the organization's identity provider",
        params: LoginParams,
        querystring: LoginQuery,
        response: { 302: Redirect, 503: ErrorBody },
      },
    },
    async (request, reply) => {
      const { location, state } = await startLogin(deps, request.params.domain, request.query.redirect_uri, request.log)
      if (state) reply.header('set-cookie', stateCookie(state, config.publicUrl))
      return reply.header('cache-control', 'no-store').redirect(location)
    },
  )

  app.get(
    '/callback',
    {
      config: { public: true },
      schema: {
        operationId: 'finishSsoLogin',
        description:
          'Exchanges the code, signs the user in (or creates them just in time) and redirects to `redirect_uri#access_token=…`; any failure redirects with `#error=access_denied`.',
        tags,
        summary: "The identity provider's redirect back; ends with a redirect to the client",
        querystring: CallbackQuery,
        response: { 302: Redirect, 400: ErrorBody, 503: ErrorBody },
      },
    },
    async (request, reply) => {
      const location = await finishLogin(deps, request.query, readStateCookie(request.headers.cookie), request)
      return reply.header('set-cookie', clearedStateCookie).header('cache-control', 'no-store').redirect(location)
    },
  )
}
