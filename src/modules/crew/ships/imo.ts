import { registerFormat } from '../../../lib/validation.js'

/**
 * IMO ship numbers: seven digits whose last is a check digit (weights 7..2 over the first six).
 * "IMO 9074729" and "9074729" are the same number. Returns the normalized digits or null.
 */
export function normalizeImo(input: string): string | null {
  const digits = input.trim().replace(/^IMO[\s-]*/i, '')
  if (!/^\d{7}$/.test(digits)) return null
  const sum = [...digits.slice(0, 6)].reduce((acc, d, i) => acc + Number(d) * (7 - i), 0)
  return sum % 10 === Number(digits[6]) ? digits : null
}

registerFormat('imo-number', (value) => normalizeImo(value) !== null, 'Value is not a valid IMO number (7 digits with a valid check digit)')
