import { parse as parseQueryString } from 'node:querystring'
import { ValidationFailed } from './errors.js'
import type { Loc, ValidationIssue } from './validation.js'

// PostgreSQL text cannot hold U+0000, and a lone surrogate has no UTF-8 form (the driver would turn
// it into U+FFFD): both are refused at the field before anything is written.
const NUL = { msg: 'String should not contain the NUL character', type: 'string_nul' }
const UNPAIRED = { msg: 'String should be valid Unicode', type: 'string_unicode' }

function textProblem(text: string): Omit<ValidationIssue, 'loc'> | null {
  if (text.includes('\u0000')) return NUL
  // With the u flag a surrogate pair is one code point, so only an unpaired half matches.
  if (/\p{Surrogate}/u.test(text)) return UNPAIRED
  return null
}

/** Where a value sits: its key and its parent's place, so a loc is built only for a value reported. */
type Place = { key: string | number; parent: Place } | null

function locOf(base: Loc, place: Place): Loc {
  const keys: (string | number)[] = []
  for (let at = place; at; at = at.parent) keys.push(at.key)
  return [...base, ...keys.reverse()]
}

/**
 * Every string of a parsed request part, at any depth and in fields the route ignores, with the
 * loc of its field. A bad object key is reported at its object. Iterative: a deeply nested body
 * must not overflow the stack.
 */
export function unstorableText(value: unknown, loc: Loc): ValidationIssue[] {
  const issues: ValidationIssue[] = []
  const pending: [unknown, Place][] = [[value, null]]
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, place] = next
    if (typeof item === 'string') {
      const problem = textProblem(item)
      if (problem) issues.push({ loc: locOf(loc, place), ...problem })
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) pending.push([item[i], { key: i, parent: place }])
    } else if (item !== null && typeof item === 'object') {
      const entries = Object.entries(item)
      for (const [key] of entries) {
        const problem = textProblem(key)
        if (problem) issues.push({ loc: locOf(loc, place), ...problem })
      }
      for (let i = entries.length - 1; i >= 0; i--) pending.push([entries[i][1], { key: entries[i][0], parent: place }])
    }
  }
  return issues
}

/** Percent-escapes that do not decode to UTF-8, in a query string, a form or a path. */
export const undecodable = (loc: Loc): ValidationIssue => ({
  loc,
  msg: 'Percent-encoded bytes should be valid UTF-8',
  type: 'string_unicode',
})

/** A run of escapes that is not UTF-8 (`%FF`, overlong `%C0%AE`, surrogate `%ED%A0%80`). */
function hasUndecodableEscapes(raw: string): boolean {
  return (raw.match(/(?:%[0-9a-f]{2})+/gi) ?? []).some((run) => decode(run) === null)
}

function decode(raw: string): string | null {
  try {
    return decodeURIComponent(raw)
  } catch {
    return null
  }
}

/**
 * Pairs of an `application/x-www-form-urlencoded` text (a query string or a form) whose escapes are
 * not UTF-8. The parser keeps those as the literal text, so they are caught here, at the parameter
 * when its name decodes. A `%` without two hex digits is kept literally, as the parser (and Python) do.
 */
export function undecodableParams(raw: string, loc: Loc): ValidationIssue[] {
  const issues: ValidationIssue[] = []
  for (const pair of raw.split('&')) {
    const split = pair.indexOf('=')
    const rawKey = (split === -1 ? pair : pair.slice(0, split)).replace(/\+/g, ' ')
    const keyOk = !hasUndecodableEscapes(rawKey)
    if (!keyOk || (split !== -1 && hasUndecodableEscapes(pair.slice(split + 1)))) {
      issues.push(undecodable(keyOk ? [...loc, decode(rawKey) ?? rawKey] : loc))
    }
  }
  return issues
}

/** The login form, parsed like a query string; escapes that are not UTF-8 are a 422 at their field. */
export function parseForm(text: string): Record<string, unknown> {
  const issues = undecodableParams(text, ['body'])
  if (issues.length) throw new ValidationFailed(issues)
  return parseQueryString(text)
}
