// CPU per request: a steadier figure than req/s on a shared machine. Both sides are read from
// /proc/<pid>/stat (utime + stime, in clock ticks): the server process with its cluster workers, and
// the PostgreSQL backends connected to the bench database. Next to it, the MultiXacts PostgreSQL
// created per request: one appears whenever a second transaction share-locks a row another holds,
// which is what foreign-key checks on a hot parent row (an organization, an admin) cause.
import { readdirSync, readFileSync } from 'node:fs'
import type pg from 'pg'

/** Linux's USER_HZ: 100 ticks per second on every mainstream kernel (getconf CLK_TCK). */
const TICK_US = 10_000

type Sample = Map<number, number>

/** Fields after the command name, which may itself hold spaces and parentheses. */
function statFields(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return text.slice(text.lastIndexOf(')') + 2).split(' ')
  } catch {
    return undefined
  }
}

function ticks(pid: number): number | undefined {
  const fields = statFields(pid)
  // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after "pid (comm) ".
  return fields && Number(fields[11]) + Number(fields[12])
}

/** The process and its descendants (node:cluster workers are children of the primary). */
function processTree(root: number): number[] {
  const parents = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry)
    const fields = pid ? statFields(pid) : undefined
    if (fields) parents.set(pid, Number(fields[1]))
  }
  const tree = [root]
  for (let i = 0; i < tree.length; i++) {
    for (const [pid, parent] of parents) if (parent === tree[i]) tree.push(pid)
  }
  return tree
}

function sample(pids: number[]): Sample {
  const result: Sample = new Map()
  for (const pid of pids) {
    const t = ticks(pid)
    if (t !== undefined) result.set(pid, t)
  }
  return result
}

/** Ticks spent between two samples; a process born in between counts from zero. */
function spentUs(before: Sample, after: Sample): number {
  let total = 0
  for (const [pid, t] of after) total += t - (before.get(pid) ?? 0)
  return total * TICK_US
}

async function backends(client: pg.Client): Promise<number[]> {
  const { rows } = await client.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  )
  return rows.map((r) => r.pid)
}

export interface CpuPerRequest {
  serverUs: number
  postgresUs: number
  /** Undefined when the bench role may not CHECKPOINT (the counter is read from the control file). */
  multixacts?: number
}

/** The next MultiXact id, as of a checkpoint forced now. */
async function nextMultixact(client: pg.Client): Promise<number | undefined> {
  try {
    await client.query('checkpoint')
    const { rows } = await client.query<{ id: string }>('select next_multixact_id::text as id from pg_control_checkpoint()')
    return Number(rows[0].id)
  } catch {
    return undefined
  }
}

/** Starts measuring; the returned function ends it and divides by the requests served meanwhile. */
export async function measureCpu(serverPid: number, client: pg.Client): Promise<(requests: number) => Promise<CpuPerRequest>> {
  const multixactsBefore = await nextMultixact(client)
  const server = sample(processTree(serverPid))
  const postgres = sample(await backends(client))
  return async (requests) => {
    const serverAfter = sample(processTree(serverPid))
    const postgresAfter = sample(await backends(client))
    const multixactsAfter = await nextMultixact(client)
    const per = (us: number) => Math.round(us / Math.max(requests, 1))
    const multixacts =
      multixactsBefore === undefined || multixactsAfter === undefined
        ? undefined
        : Math.round((100 * (multixactsAfter - multixactsBefore)) / Math.max(requests, 1)) / 100
    return { serverUs: per(spentUs(server, serverAfter)), postgresUs: per(spentUs(postgres, postgresAfter)), multixacts }
  }
}
