import { sql } from 'kysely'
import { todayUtcSql } from '../src/lib/dates.js'
import { testDatabase } from './app.js'

/** Today in UTC as the service computes it: by the database's clock, with the service's expression. */
async function databaseToday(): Promise<string> {
  const { db } = await testDatabase()
  const { rows } = await sql<{ today: string }>`select ${todayUtcSql} as today`.execute(db)
  return rows[0].today
}

/**
 * Runs a check about "today" with the database's current UTC date. Should midnight pass during the
 * check, the test and the service may disagree about the day; the check then runs again on the new
 * day (the next midnight is a day away), so no result depends on when the suite runs.
 */
export async function onOneUtcDay(check: (today: string) => Promise<void>): Promise<void> {
  const today = await databaseToday()
  try {
    await check(today)
  } catch (error) {
    const now = await databaseToday()
    if (now === today) throw error
    await check(now)
  }
}
