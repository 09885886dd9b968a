// DECISIONS §15: passwords are 10–200 characters. Checked here too, so the form says so before sending.
const MIN = 10
const MAX = 200

export const PASSWORD_RULE = `${MIN} to ${MAX} characters.`

/** What is wrong with a new password and its repetition, in words; null when nothing is. */
export function passwordProblem(password: string, repeated: string): string | null {
  if (password.length < MIN) return `The password needs at least ${MIN} characters.`
  if (password.length > MAX) return `The password can have at most ${MAX} characters.`
  if (password !== repeated) return 'The two passwords differ.'
  return null
}
