import Type, { type Static } from 'typebox'
import { DateTime } from '../../../lib/schemas.js'

/** Every password a user sets (DECISIONS §15); logging in checks no length, so older passwords still work. */
export const NewPassword = Type.String({ minLength: 10, maxLength: 200 })

export const AccountLink = Type.Object(
  {
    url: Type.String({ format: 'uri', description: 'One-time link to the console page that sets the password' }),
    expiresAt: DateTime,
  },
  {
    title: 'AccountLink',
    examples: [
      { url: 'https://crew.example.com/console/invite/3q2-7wKp0cV1yZ4bN8mR5tX6uA9dE2fH7jL0oQ3sW1g', expiresAt: '2026-06-22T08:30:00.000Z' },
    ],
  },
)
export type AccountLink = Static<typeof AccountLink>

/** A link's token as it appears in the path: anything unknown is the same 404 as a used one. */
export const LinkTokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) })

export const SetPassword = Type.Object(
  { password: NewPassword },
  { title: 'SetPassword', examples: [{ password: 'correct-horse-battery' }] },
)

export const PasswordChange = Type.Object(
  { currentPassword: Type.String({ minLength: 1, maxLength: 256 }), newPassword: NewPassword },
  { title: 'PasswordChange', examples: [{ currentPassword: 'correct-horse-battery', newPassword: 'staple-battery-horse-correct' }] },
)
