// A PostgreSQL of the profiler's own: pg_stat_statements and auto_explain must be preloaded, which
// needs a server start, and the shared server on 5432 is never restarted for a measurement. The
// cluster lives in PROFILE_PG_DIR (kept between runs, so the seed is reused), listens on PROFILE_PG_PORT,
// and is started when it is down. Its settings are PostgreSQL's defaults plus the two libraries.
import { execFileSync } from 'node:child_process'
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { join } from 'node:path'

export const PROFILE_PG_DIR = process.env.PROFILE_PG_DIR || '/var/tmp/seaworthy-profile-pg'
export const PROFILE_PG_PORT = Number(process.env.PROFILE_PG_PORT || 5433)
export const profileLog = join(PROFILE_PG_DIR, 'log')

const data = join(PROFILE_PG_DIR, 'data')

function binaries(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN
  const root = '/usr/lib/postgresql'
  const versions = readdirSync(root).sort((a, b) => Number(a) - Number(b))
  return join(root, versions[versions.length - 1], 'bin')
}

/** initdb and pg_ctl refuse to run as root: as root, they run as the `postgres` OS user. */
function run(tool: string, args: string[]): void {
  const asPostgres = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : []
  const [command, ...rest] = [...asPostgres, join(binaries(), tool), ...args]
  execFileSync(command, rest, { stdio: 'ignore', timeout: 120_000 })
}

const SETTINGS = [
  `shared_preload_libraries='pg_stat_statements,auto_explain'`,
  // auto_explain.log_min_duration stays at its default, off, until a scenario's explain pass turns it on
  // with ALTER SYSTEM and a reload: a value given here would override that.
  'auto_explain.log_analyze=on',
  'auto_explain.log_buffers=on',
  'auto_explain.log_triggers=on',
  'auto_explain.log_nested_statements=on',
  'auto_explain.log_format=json',
  'pg_stat_statements.track=all',
  'track_io_timing=on',
  'listen_addresses=127.0.0.1',
  `port=${PROFILE_PG_PORT}`,
  `unix_socket_directories='${PROFILE_PG_DIR}'`,
]

/** Creates the cluster when missing, starts it when down; returns its URL for `database`. */
export function ensureProfilePostgres(database: string): string {
  if (!existsSync(join(data, 'PG_VERSION'))) {
    mkdirSync(PROFILE_PG_DIR, { recursive: true })
    if (process.getuid?.() === 0) {
      const [uid, gid] = ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' })))
      chownSync(PROFILE_PG_DIR, uid, gid)
    }
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync'])
  }
  if (!existsSync(join(data, 'postmaster.pid'))) {
    const options = SETTINGS.map((s) => `-c ${s}`).join(' ')
    run('pg_ctl', ['-D', data, '-o', options, '-l', profileLog, '-w', '-t', '120', 'start'])
  }
  // Backends fork from the postmaster and take its CPUs: BENCH_PG_CPUS (e.g. `1`), else all of them.
  const postmaster = readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]
  execFileSync('taskset', ['-p', '-c', process.env.BENCH_PG_CPUS || `0-${cpus().length - 1}`, postmaster], { stdio: 'ignore' })
  return `postgres://postgres@127.0.0.1:${PROFILE_PG_PORT}/${database}`
}
