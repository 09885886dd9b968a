import { ApiError, type Issue } from '../api.js'

const limit = (msg: string) => msg.match(/\d+/)?.[0] ?? ''

/** A 422 item in plain words for the field it names; the service's own sentence where it already is one. */
function plain(issue: Issue): string {
  switch (issue.type) {
    case 'missing':
      return 'Required.'
    case 'string_too_short':
      return limit(issue.msg) === '1' ? 'Required.' : `Use at least ${limit(issue.msg)} characters.`
    case 'string_too_long':
      return `Use at most ${limit(issue.msg)} characters.`
    case 'date_parsing':
      return 'Enter a date.'
    case 'uuid_parsing':
      return 'Choose one from the list.'
    case 'enum':
      return 'Choose one of the listed values.'
    case 'greater_than_equal':
      return `Enter ${limit(issue.msg)} or more.`
    case 'less_than_equal':
      return `Enter ${limit(issue.msg)} or less.`
    default: {
      const text = issue.msg.charAt(0).toUpperCase() + issue.msg.slice(1)
      return text.endsWith('.') ? text : `${text}.`
    }
  }
}

/** A 422's problems keyed by the body field they belong to (the first problem of each field). */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {}
  const errors: Record<string, string> = {}
  for (const issue of error.issues) {
    const field = issue.loc[0] === 'body' ? issue.loc[1] : undefined
    if (typeof field === 'string' && !(field in errors)) errors[field] = plain(issue)
  }
  return errors
}

/** What to show above a form: the error unless every problem of it shows at a field of the form. */
export function formLevelError(error: unknown, fields: string[]): string | null {
  if (!error) return null
  if (error instanceof ApiError && error.issues.length > 0) {
    const atFields = error.issues.every((i) => i.loc[0] === 'body' && fields.includes(String(i.loc[1])))
    if (atFields) return null
    return 'Some values need correcting: see the fields marked below.'
  }
  return error instanceof Error ? error.message : String(error)
}
