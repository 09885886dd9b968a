import { badRequest, XapiError } from './errors.js'

/** The deepest nesting of objects and arrays the LRS reads (DECISIONS §13.7); the outermost counts as 1. */
export const MAX_JSON_DEPTH = 64

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_ARRAY = 0x5b
const OPEN_OBJECT = 0x7b
const CLOSE_ARRAY = 0x5d
const CLOSE_OBJECT = 0x7d

const COMMA = 0x2c

/**
 * What stops JSON text before anything parses it: objects and arrays nested deeper than MAX_JSON_DEPTH
 * (`too_deep`), or an outermost array of more than `maxItems` items (`too_many`: a batch too large is
 * refused after reading its first items, not after parsing megabytes). Read byte by byte: a loop, not
 * recursion, so no depth can exhaust the stack, and it stops at the first limit crossed. Bytes of UTF-8
 * sequences are never ASCII, so brackets and commas inside strings are told apart by the quotes alone.
 */
export function jsonLimitCrossed(text: Uint8Array, maxItems = Number.POSITIVE_INFINITY): 'too_deep' | 'too_many' | null {
  let depth = 0
  let inString = false
  let commas = 0
  const outerIsArray = text[text.findIndex((byte) => byte > 0x20)] === OPEN_ARRAY
  for (let at = 0; at < text.length; at++) {
    const byte = text[at]
    if (inString) {
      if (byte === BACKSLASH) at++
      else if (byte === QUOTE) inString = false
    } else if (byte === QUOTE) inString = true
    else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      if (++depth > MAX_JSON_DEPTH) return 'too_deep'
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) depth--
    else if (byte === COMMA && depth === 1 && outerIsArray && ++commas >= maxItems) return 'too_many'
  }
  return null
}

export function isTooDeep(text: Uint8Array): boolean {
  return jsonLimitCrossed(text) === 'too_deep'
}

/**
 * JSON from a request (`what` names it in the 400): refused when nested too deep (400), or when it is a
 * batch of more than `maxBatch` statements (413), before it is parsed.
 */
export function parseJson(text: Uint8Array, what: string, maxBatch?: number): unknown {
  const crossed = jsonLimitCrossed(text, maxBatch)
  if (crossed === 'too_deep') throw badRequest(`${what} nests objects and arrays deeper than ${MAX_JSON_DEPTH}`)
  if (crossed === 'too_many') throw tooManyStatements(maxBatch as number)
  try {
    return JSON.parse(Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString('utf8'))
  } catch {
    throw badRequest(`${what} is not JSON`)
  }
}

export function tooManyStatements(maxBatch: number): XapiError {
  return new XapiError(413, `A POST stores at most ${maxBatch} statements; send the rest in another`)
}
