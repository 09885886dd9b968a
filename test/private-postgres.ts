import { execFile as execFileCb, execFileSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { freePort } from './free-port.js'

const execFile = promisify(execFileCb)

// A PostgreSQL instance of the test's own (initdb into a temporary directory, its own port and
// socket directory, trust authentication), so stopping and killing it touches nothing shared.

/** The newest installed server's binaries, or PG_BIN. */
function binaries(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN
  const root = '/usr/lib/postgresql'
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(a) - Number(b)) : []
  if (!versions.length) throw new Error('No PostgreSQL server binaries under /usr/lib/postgresql: install postgresql or set PG_BIN')
  return join(root, versions[versions.length - 1], 'bin')
}

export class PrivatePostgres {
  private constructor(
    private readonly dir: string,
    readonly port: number,
    private readonly bin: string,
  ) {}

  /** initdb refuses to run as root: as root, the server runs as the `postgres` OS user. */
  private static runner(): string[] {
    return process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : []
  }

  static async create(): Promise<PrivatePostgres> {
    const dir = mkdtempSync(join(tmpdir(), 'seaworthy-outage-'))
    if (process.getuid?.() === 0) {
      const [uid, gid] = ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' })))
      chownSync(dir, uid, gid)
    }
    const pg = new PrivatePostgres(dir, await freePort(), binaries())
    await pg.run('initdb', ['-D', pg.data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync'])
    return pg
  }

  private get data(): string {
    return join(this.dir, 'data')
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`
  }

  private async run(tool: string, args: string[]): Promise<void> {
    const [command, ...rest] = [...PrivatePostgres.runner(), join(this.bin, tool), ...args]
    await execFile(command, rest, { timeout: 60_000 })
  }

  async start(): Promise<void> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1`
    await this.run('pg_ctl', ['-D', this.data, '-o', options, '-l', join(this.dir, 'log'), '-w', '-t', '60', 'start'])
  }

  /** `fast` ends sessions and shuts down cleanly; `immediate` is a crash (recovery at the next start). */
  async stop(mode: 'fast' | 'immediate'): Promise<void> {
    await this.run('pg_ctl', ['-D', this.data, '-m', mode, '-w', '-t', '60', 'stop'])
  }

  /** The postmaster's pid while it runs. */
  pid(): number | null {
    const file = join(this.data, 'postmaster.pid')
    return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : null
  }

  async destroy(): Promise<void> {
    if (this.pid()) await this.stop('immediate').catch(() => {})
    rmSync(this.dir, { recursive: true, force: true })
  }
}
