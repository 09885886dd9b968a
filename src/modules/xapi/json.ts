import { badRequest } from './errors.js'

/** The deepest nesting of objects and arrays the LRS reads (DECISIONS §13.7); the outermost counts as 1. */
export const MAX_JSON_DEPTH = 64

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_ARRAY = 0x5b
const OPEN_OBJECT = 0x7b
const CLOSE_ARRAY = 0x5d
const CLOSE_OBJECT = 0x7d

/**
 * Whether JSON text nests objects and arrays deeper than MAX_JSON_DEPTH, read byte by byte before
 * anything parses it: a loop, not recursion, so no depth can exhaust the stack, and it stops at the
 * first level too deep. Bytes of UTF-8 sequences are never ASCII, so brackets inside strings are
 * told apart by the quotes alone.
 */
export function isTooDeep(text: Uint8Array): boolean {
  let depth = 0
  let inString = false
  for (let at = 0; at < text.length; at++) {
    const byte = text[at]
    if (inString) {
      if (byte === BACKSLASH) at++
      else if (byte === QUOTE) inString = false
    } else if (byte === QUOTE) inString = true
    else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      if (++depth > MAX_JSON_DEPTH) return true
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) depth--
  }
  return false
}

/** JSON from a request (`what` names it in the 400): refused when nested too deep, before it is parsed. */
export function parseJson(text: Uint8Array, what: string): unknown {
  if (isTooDeep(text)) throw badRequest(`${what} nests objects and arrays deeper than ${MAX_JSON_DEPTH}`)
  try {
    return JSON.parse(Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString('utf8'))
  } catch {
    throw badRequest(`${what} is not JSON`)
  }
}
