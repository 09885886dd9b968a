import fc from 'fast-check'

// Values that have broken JSON APIs before: wrong types, limits of numbers, text PostgreSQL cannot
// store, text that changes meaning on the way (escapes, separators), and sizes past every limit.

export const NASTY_STRINGS = [
  '',
  ' ',
  '   padded   ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF',
  'x\uDBFFy',
  '\uDC00\uD800',
  '\uD83D\uDE00',
  '\uFEFFbom',
  '\u202Eright-to-left',
  'zero\u200Dwidth',
  'e\u0301\u0301\u0301',
  '\uFFFE\uFFFF',
  '\u{10FFFF}',
  '\u2028\u2029\u0085',
  '\r\nX-Injected: 1',
  '%00',
  '%FF',
  '%',
  '../../etc/passwd',
  "'; drop table users; --",
  '" or 1=1 --',
  '\\',
  '"',
  '{}',
  '[]',
  'null',
  'true',
  '-1',
  '1e999',
  'NaN',
  '0x10',
  '007',
  ' 5',
  '+5',
  '2026-02-30',
  '2026-13-01',
  '0000-00-00',
  '99999-01-01',
  '2026-01-01T25:61:61Z',
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
  '0190f5a0-0000-7000-8000-00000000000',
  '0190f5a0-0000-7000-8000-0000000000000',
  '{0190f5a0-0000-7000-8000-000000000000}',
  '0190f5a000007000800000000000000g',
  '<script>alert(1)</script>',
  '$' + '{7*7}{{7*7}}',
  'ÅÄÖ ñ 漢字 العربية',
  '𝕏'.repeat(300),
  'a'.repeat(101),
  'a'.repeat(1025),
  'a'.repeat(70_000),
]

/** Past the 1 MiB body limit: the server must refuse it without parsing it. */
export const HUGE_TEXT = 'a'.repeat(1024 * 1024 + 10)

export const NASTY_NUMBERS = [0, -0, -1, 1, 1.5, -1.5, 0.1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 1, -(2 ** 53) - 1, 1e308, -1e308, 5e-324]

export const NASTY_JSON: unknown[] = [
  null,
  true,
  false,
  [],
  {},
  [null],
  [1, 2, 3],
  { a: 1 },
  JSON.parse('{"__proto__":{"polluted":true}}'),
  { constructor: { prototype: { polluted: true } } },
  ...NASTY_NUMBERS,
  '',
  'x',
]

/** Request bodies that are not JSON, or JSON that a careless parser mishandles. */
export const RAW_BODIES: (string | Buffer)[] = [
  '{',
  '{"a":',
  '[1,]',
  "{'a':1}",
  'NaN',
  '{"a":1}garbage',
  '\u0000',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"__proto__":{"polluted":true}}',
  '{"a":1,"a":2}',
  '"just a string"',
  '12345678901234567890123456789',
  ' ',
  '\uFEFF{}',
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
  Buffer.from([0x7b, 0x22, 0xc0, 0xae, 0x22, 0x3a, 0x31, 0x7d]),
  Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
]

export const OTHER_CONTENT_TYPES = [
  'text/plain',
  'application/xml',
  'application/octet-stream',
  'multipart/form-data; boundary=fuzz',
  'application/x-www-form-urlencoded',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/json;;;',
  'application/vnd.api+json',
  '',
]

/** Raw query string text appended after the generated parameters. */
export const RAW_QUERY_TAILS = ['%FF', '%', '%E2%82', '%C0%AE=1', '=x', '&&&', 'a[b]=1', 'limit=1&limit=2', '%00=%00', 'x=%ED%A0%80']

/** Raw path segment text in place of a parameter value (not encoded on purpose). */
export const RAW_PATH_SEGMENTS = [
  '..',
  '.',
  '%2e%2e',
  '%2F',
  '%00',
  '%FF',
  '%ED%A0%80',
  '%',
  'a%zz',
  ' ',
  '%20',
  ';x=1',
  'x'.repeat(101),
  'x'.repeat(5000),
]

/** A string from the list above, some unicode, or text with a NUL or a lone surrogate spliced in. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 10 }), fc.constantFrom('\u0000', '\uD800', '\uDFFF'), fc.string({ maxLength: 10 }))
      .map((parts) => parts.join('')),
  },
)

/**
 * Percent-encodes text as a client would send it. Lone surrogates (which encodeURIComponent refuses)
 * become the three bytes a lenient encoder would write, which are not UTF-8.
 */
export function encodeLoose(text: string): string {
  let out = ''
  for (const char of text) {
    const code = char.codePointAt(0)!
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('')
    } else {
      out += encodeURIComponent(char)
    }
  }
  return out
}

/** JSON nested `depth` levels deep, written as text so building it needs no recursion. */
export class Deep {
  constructor(
    readonly depth: number,
    readonly open: '[' | '{',
  ) {}
  text(): string {
    return this.open === '['
      ? `${'['.repeat(this.depth)}${']'.repeat(this.depth)}`
      : `${'{"a":'.repeat(this.depth)}1${'}'.repeat(this.depth)}`
  }
}

export const deepValue: fc.Arbitrary<Deep> = fc
  .tuple(fc.constantFrom(64, 1000, 10_000, 100_000), fc.constantFrom('[' as const, '{' as const))
  .map(([depth, open]) => new Deep(depth, open))
