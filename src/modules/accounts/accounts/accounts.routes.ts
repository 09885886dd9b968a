import { ADMIN } from '../../../lib/access.js'
import { ErrorBody, IdParams, NoContent } from '../../../lib/schemas.js'
import { TokenResponse } from '../../../lib/sessions.schemas.js'
import type { ModulePlugin } from '../../types.js'
import { AccountLink, LinkTokenParams, PasswordChange, SetPassword } from './accounts.schemas.js'
import { acceptLink, changeOwnPassword, issueLinkFor, linkDepsOf } from './accounts.service.js'

const UserParams = IdParams('user_id')

const tags = ['accounts']

/** An admin's links for a user (DECISIONS §15), under /api/v1/shared/users. */
export const accountLinkRoutes: ModulePlugin = (app, deps) => {
  const linkDeps = linkDepsOf(deps)
  app.post(
    '/:user_id/invitation',
    {
      config: { roles: ADMIN },
      schema: {
        operationId: 'issueInvitation',
        summary: 'Issue a new invitation link',
        description:
          'Admins only. Revokes the earlier links of the pending user and answers the new one (also e-mailed when SMTP is configured); a user who is not pending is a 409.',
        tags,
        params: UserParams,
        response: { 201: AccountLink, 409: ErrorBody },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await issueLinkFor(linkDeps(request.log), request.actor, request.params.user_id, 'invitation')),
  )

  app.post(
    '/:user_id/password-reset',
    {
      config: { roles: ADMIN },
      schema: {
        operationId: 'issuePasswordReset',
        summary: 'Issue a password reset link',
        description:
          'Admins only. A one-time link valid 24 hours (also e-mailed when SMTP is configured); it revokes the earlier reset links. A suspended user is a 409.',
        tags,
        params: UserParams,
        response: { 201: AccountLink, 409: ErrorBody },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await issueLinkFor(linkDeps(request.log), request.actor, request.params.user_id, 'password_reset')),
  )
}

/** Accepting a link: the link is the credential (public routes under /api/v1/auth). */
export const acceptLinkRoutes: ModulePlugin = (app, { db, tokens, actors, config }) => {
  const sessions = { db, tokens, actors, refreshTokenTtlDays: config.accounts.refreshTokenTtlDays }
  app.post(
    '/invitations/:token/accept',
    {
      config: { public: true },
      schema: {
        operationId: 'acceptInvitation',
        summary: 'Accept an invitation',
        description:
          'Sets the password of the invited user, who becomes active and is signed in. A used, expired or revoked link is a 404.',
        tags,
        params: LinkTokenParams,
        body: SetPassword,
        response: { 200: TokenResponse },
      },
    },
    async (request) => acceptLink(sessions, 'invitation', request.params.token, request.body.password, request.id),
  )

  app.post(
    '/password-resets/:token/accept',
    {
      config: { public: true },
      schema: {
        operationId: 'acceptPasswordReset',
        summary: 'Choose a new password with a reset link',
        description:
          'Sets the password and signs the user in; every earlier access and refresh token of the user stops working. A used, expired or revoked link is a 404.',
        tags,
        params: LinkTokenParams,
        body: SetPassword,
        response: { 200: TokenResponse },
      },
    },
    async (request) => acceptLink(sessions, 'password_reset', request.params.token, request.body.password, request.id),
  )
}

/** The caller's own password, under /api/v1/users (and /api/v1/shared/users). */
export const ownPasswordRoutes: ModulePlugin = (app, { db, actors }) => {
  app.post(
    '/me/password',
    {
      schema: {
        operationId: 'changeOwnPassword',
        summary: 'Change your password',
        description:
          "Every role. A wrong current password is a 422 at currentPassword; the caller's other sign-ins end: their refresh and access tokens are refused from now on.",
        tags,
        body: PasswordChange,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await changeOwnPassword(db, request.actor, request.body)
      actors.changed(request.actor.userId)
      return reply.status(204).send(null)
    },
  )
}
