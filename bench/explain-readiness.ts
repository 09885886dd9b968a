// `npx tsx bench/explain-readiness.ts [name…]`: EXPLAIN (ANALYZE, BUFFERS) of the statements behind the
// readiness and expiry scenarios, built by the application's own query functions, on the seeded bench
// database (BENCH_DATABASE_URL), as docs/performance.md shows them.
import { type CompiledQuery, Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
// Sets the date parser: dates stay 'YYYY-MM-DD' text, as the application reads them.
import '../src/db/database.js'
import type { DB } from '../src/db/schema.js'
import { todayUtc } from '../src/lib/dates.js'
import { encodeCursor } from '../src/lib/pagination.js'
import { listExpiring } from '../src/modules/crew/expiring/expiring.queries.js'
import type { ExpiringQuery } from '../src/modules/crew/expiring/expiring.schemas.js'
import { assignmentReadiness, fleetReadiness, shipReadiness } from '../src/modules/crew/readiness/readiness.queries.js'
import type { FleetQuery } from '../src/modules/crew/readiness/readiness.schemas.js'

const url = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/seaworthy_bench'
// One connection, with JIT off as the service's connections have it (src/db/database.ts).
const pool = new pg.Pool({ connectionString: url, max: 1 })
let last: CompiledQuery | undefined
const db = new Kysely<DB>({
  dialect: new PostgresDialect({ pool }),
  log: (event) => {
    last = event.query
  },
})

const first = async (text: string, values: unknown[]) => (await pool.query(text, values)).rows[0]

async function main(): Promise<void> {
  await pool.query('set jit = off')
  const { org: orgId } = await first('select largest_org_id as org from bench_meta', [])
  const ctx = { orgId, asOf: todayUtc(), defaultWindowDays: 90 }
  const { id: assignmentId } = await first('select id from assignments where organization_id = $1 order by id limit 1', [orgId])
  const { id: shipId } = await first('select id from ships where organization_id = $1 order by id limit 1', [orgId])
  const { user_id: userId } = await first('select user_id from assignments where id = $1', [assignmentId])
  // The key of the 1000th active assignment in the fleet's order: the cursor of page 101.
  const deep = await first(
    `select coalesce(start_date, 'infinity'::date)::text as d, id from assignments
     where organization_id = $1 and (end_date is null or end_date >= $2::date)
     order by coalesce(start_date, 'infinity'::date), id offset 999 limit 1`,
    [orgId, ctx.asOf],
  )
  const fleet = (query: Partial<FleetQuery>) => fleetReadiness(db, ctx, { limit: 10, include_count: false, is_active: true, ...query })
  const expiring = (query: Partial<ExpiringQuery>) => listExpiring(db, ctx, { limit: 10, include_count: false, ...query })
  const statements: Record<string, () => Promise<unknown>> = {
    'assignment-readiness': () => assignmentReadiness(db, ctx, assignmentId),
    'readiness-first': () => fleet({}),
    'readiness-deep': () => fleet({ cursor: encodeCursor([deep.d, deep.id]) }),
    'readiness-not-ready': () => fleet({ ready: false }),
    'readiness-by-ship': () => fleet({ ship_id: shipId }),
    'readiness-by-user': () => fleet({ user_id: userId }),
    'ship-readiness': () => shipReadiness(db, ctx, shipId),
    'expiring-first': () => expiring({}),
    'expiring-deep': async () => expiring({ cursor: (await expiring({ limit: 1000 })).nextCursor ?? undefined }),
  }
  const names = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(statements)
  for (const name of names) {
    await statements[name]()
    const query = last as CompiledQuery
    const plan = await pool.query(`explain (analyze, buffers) ${query.sql}`, query.parameters as unknown[])
    console.log(`=== ${name}\n${plan.rows.map((row) => row['QUERY PLAN']).join('\n')}\n`)
  }
}

main()
  .catch((error) => {
    console.error(error)
    process.exitCode = 1
  })
  .finally(() => pool.end())
