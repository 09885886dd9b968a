import { type Case, hostileCase } from '../harness.js'
import { Api } from '../http.js'
import { ADMIN } from '../service.js'

// Sign-ins that have ended (issue 36, DECISIONS §15 addendum): the access token of a signed-out sign-in
// is refused at once, and an access token sent as a refresh token is 401, not a validation error.

const group = 'auth'

async function freshSignIn(baseUrl: string) {
  const tokens = await new Api(baseUrl).expect(200, 'POST', '/api/v1/auth/token', ADMIN)
  return { access: tokens.access_token as string, refresh: tokens.refresh_token as string }
}

export const authCases: Case[] = [
  hostileCase({
    group,
    name: 'an access token sent as a refresh token: 401',
    prepare: (world) => freshSignIn(world.service.baseUrl),
    run: async (world, tokens, signal) => {
      const res = await new Api(world.service.baseUrl).post(
        '/api/v1/auth/token',
        { grant_type: 'refresh_token', refresh_token: tokens.access },
        signal,
      )
      return res.status === 401 ? null : `answered ${res.status} ${res.answer.text.slice(0, 200)}`
    },
  }),
  hostileCase({
    group,
    name: 'the access token of a signed-out sign-in: 401',
    prepare: async (world) => {
      const tokens = await freshSignIn(world.service.baseUrl)
      await new Api(world.service.baseUrl).expect(204, 'POST', '/api/v1/auth/logout', { refresh_token: tokens.refresh })
      return tokens
    },
    run: async (world, tokens, signal) => {
      const res = await new Api(world.service.baseUrl, `Bearer ${tokens.access}`).get('/api/v1/users/me', signal)
      return res.status === 401 ? null : `answered ${res.status}`
    },
  }),
]
