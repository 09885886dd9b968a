import { sql } from 'kysely'

/** Today's calendar date in UTC, the reference for expiry status and isActive. */
export function todayUtc(now = new Date()): string {
  return now.toISOString().slice(0, 10)
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

/** The same "today", computed by the database so filters agree with responses. */
export const todayUtcSql = sql<string>`(now() at time zone 'utc')::date`

export const iso = (value: Date) => value.toISOString()
export const isoOrNull = (value: Date | null) => (value ? value.toISOString() : null)
