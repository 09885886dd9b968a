import { createHash } from 'node:crypto'
import { type Kysely, sql } from 'kysely'

// The Learning Record Store's share of the seed (issue 26): statements spread over the largest
// organization's registrations, written as src/modules/learning/xapi/store.ts writes them (the filter columns
// beside the whole statement, related agents and activities, the canonical activities), plus one state
// document per registration that has statements, and the credential the scenarios use.

// Bump whenever the generated statements change: a database seeded by another version re-seeds them.
export const XAPI_SEED_VERSION = 1
export const XAPI_KEY = 'bench-lrs'
export const XAPI_SECRET = 'bench-lrs-secret-0123456789'
export const STATE_ID = 'bookmark'
export const PROGRESSED = 'http://adlnet.gov/expapi/verbs/progressed'
const STATE_CONTENT = '{"page":1}'
const AUTHORITY_HOME = 'http://127.0.0.1'

/** The activity IRI of a course: the bench's statements are about the courses of the seed. */
export const courseActivity = (courseId: string) => `https://courses.fleet0.bench.example/${courseId}`

const iso = (expr: string) => `to_char(${expr} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

// Statement i is about registration i % R (R: the largest organization's registrations) and is its
// (i / R)-th: launched, initialized, progressed, progressed, then passed or failed, then progressed
// again past the fifth. A registration's course and person come from the registrations table's own
// derivation in seed-sql.ts (registration r: assignment r / regs_per, person assignment % users).
const STATEMENTS = `with plan as (
    select p.org_id, p.users, p.regs_per, p.reg_courses, p.assignments * p.regs_per as regs from seed_plan p where p.org_no = 0
  ), rows as (
    select pl.org_id, i, k, pg_temp.uid('st', 0, i) as id, pg_temp.uid('r', 0, r) as registration,
      'mailto:user' || u || '@fleet0.bench.example' as mbox,
      'https://courses.fleet0.bench.example/' || pg_temp.uid('c', 0, (a + (r % pl.regs_per) * (pl.reg_courses / pl.regs_per)) % pl.reg_courses) as activity,
      case when k = 0 then 'launched' when k = 1 then 'initialized' when k = 4 then case when pg_temp.h(r, 10) < 8 then 'passed' else 'failed' end
        else 'progressed' end as verb,
      date_trunc('milliseconds', now() - interval '2 days' - a * interval '3 minutes' + (r % pl.regs_per) * interval '1 second' + k * interval '10 minutes') as stored
    from plan pl, generate_series(0, current_setting('bench.xapi_statements')::bigint - 1) i,
      lateral (select i % pl.regs as r, i / pl.regs as k) rk, lateral (select r / pl.regs_per as a) ak, lateral (select a % pl.users as u) uk
  )
  insert into xapi_statements (organization_id, id, stored, credential_id, actor_key, object_agent_key, verb_id, activity_id,
    statement_ref, registration, related_agents, related_activities, statement)
  select org_id, id, stored, pg_temp.uid('k', 0, 0), 'mbox:' || mbox, null, 'http://adlnet.gov/expapi/verbs/' || verb, activity, null,
    registration, array['mbox:' || mbox, current_setting('bench.xapi_authority_key')], array[activity],
    jsonb_strip_nulls(jsonb_build_object(
      'id', id,
      'actor', jsonb_build_object('objectType', 'Agent', 'mbox', mbox),
      'verb', jsonb_build_object('id', 'http://adlnet.gov/expapi/verbs/' || verb, 'display', jsonb_build_object('en-US', verb)),
      'object', jsonb_build_object('objectType', 'Activity', 'id', activity,
        'definition', jsonb_build_object('type', 'http://adlnet.gov/expapi/activities/course')),
      'result', case when k = 4 then jsonb_build_object('success', verb = 'passed', 'completion', true,
          'score', jsonb_build_object('scaled', round((40 + pg_temp.h(i, 60)) / 100.0, 2)), 'duration', 'PT' || (10 + pg_temp.h(i, 50)) || 'M')
        when k >= 2 then jsonb_build_object('extensions', jsonb_build_object('https://w3id.org/xapi/cmi5/result/extensions/progress', 25 * k)) end,
      'context', jsonb_build_object('registration', registration),
      'timestamp', ${iso('stored')}, 'stored', ${iso('stored')},
      'authority', current_setting('bench.xapi_authority')::jsonb, 'version', '1.0.0'))
  from rows`

const ACTIVITIES = `insert into xapi_activities (organization_id, id, definition)
  select distinct on (activity_id) organization_id, activity_id, statement->'object'->'definition'
  from xapi_statements where organization_id = pg_temp.uid('o', 0, 0) and verb_id = 'http://adlnet.gov/expapi/verbs/launched'
  order by activity_id`

// One bookmark per registration with statements, by its learner, about its course; the same content (and ETag) in each.
const STATE_DOCUMENTS = `insert into xapi_documents (organization_id, kind, activity_id, agent_key, registration, document_id, content_type,
    content, etag, updated)
  select organization_id, 'state', activity_id, actor_key, registration::text, '${STATE_ID}', 'application/json',
    convert_to(current_setting('bench.state_content'), 'UTF8'), current_setting('bench.state_etag'), stored
  from xapi_statements where organization_id = pg_temp.uid('o', 0, 0) and verb_id = 'http://adlnet.gov/expapi/verbs/launched'`

const CREDENTIAL = `insert into xapi_credentials (id, organization_id, name, key, secret_hash, scopes, created_by)
  values (pg_temp.uid('k', 0, 0), pg_temp.uid('o', 0, 0), 'Bench LRS', '${XAPI_KEY}',
    encode(sha256(convert_to('${XAPI_SECRET}', 'UTF8')), 'hex'), array['all'], pg_temp.uid('u', 0, 0))`

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex')

/**
 * Fills the LRS tables inside the seed's transaction (seed_plan and pg_temp.uid exist). The secondary
 * indexes of xapi_statements (its primary key too) are dropped first and built again after the load, from
 * their own definitions: building an index once is far cheaper than 5 million index insertions.
 */
export async function fillXapi(trx: Kysely<any>, statements: number, timed: (label: string, run: () => Promise<unknown>) => Promise<void>) {
  const run = (text: string) => sql.raw(text).execute(trx)
  const authority = { objectType: 'Agent', name: 'Bench LRS', account: { homePage: AUTHORITY_HOME, name: XAPI_KEY } }
  const settings = {
    'bench.xapi_statements': String(statements),
    'bench.xapi_authority': JSON.stringify(authority),
    'bench.xapi_authority_key': `account:${JSON.stringify([AUTHORITY_HOME, XAPI_KEY])}`,
    'bench.state_content': STATE_CONTENT,
    'bench.state_etag': `"${sha1(STATE_CONTENT)}"`,
  }
  for (const [name, value] of Object.entries(settings)) await sql`select set_config(${name}, ${value}, true)`.execute(trx)
  await run(`set local maintenance_work_mem = '512MB'`)
  const { rows: indexes } = await sql<{ name: string; definition: string }>`
    select indexname as name, indexdef as definition from pg_indexes
    where schemaname = 'public' and tablename = 'xapi_statements' and indexname <> 'xapi_statements_pkey'`.execute(trx)
  const { rows: keys } = await sql<{ definition: string }>`
    select pg_get_constraintdef(oid) as definition from pg_constraint where conname = 'xapi_statements_pkey'`.execute(trx)
  for (const index of indexes) await run(`drop index ${index.name}`)
  await run('alter table xapi_statements drop constraint xapi_statements_pkey')
  await timed('xAPI credential', () => run(CREDENTIAL))
  await timed(`xAPI statements (${statements.toLocaleString('en')})`, () => run(STATEMENTS))
  await timed('xAPI indexes', async () => {
    await run(`alter table xapi_statements add constraint xapi_statements_pkey ${keys[0].definition}`)
    for (const index of indexes) await run(index.definition)
  })
  await timed('xAPI activities', () => run(ACTIVITIES))
  await timed('xAPI state documents', () => run(STATE_DOCUMENTS))
}
