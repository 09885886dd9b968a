import { type RawBuilder, sql } from 'kysely'

/** Everything JavaScript's String.prototype.trim removes: roles match "after trimming" the same way in SQL. */
const WHITESPACE =
  '\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff'

/** A role or position as written, trimmed. */
export const trimmed = (text: RawBuilder<unknown>) => sql<string>`btrim(${text}, ${WHITESPACE})`

/** The key roles and positions match on: equal after trimming, case-insensitively (DECISIONS §10, §14). */
export const roleKey = (text: RawBuilder<unknown>) => sql<string>`lower(${trimmed(text)})`
