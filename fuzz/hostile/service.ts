import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { promisify } from 'node:util'
import { SERVICE_ENV } from './settings.js'
import { freeServicePort } from '../../test/free-port.js'

// The service as `npm run dev` runs it, in a process of its own on PGlite in a temporary DATA_DIR, on
// free ports (the API on PORT, package content on PORT + 1), with its organization made by the CLI
// before it starts. Its exit is noticed whenever it happens.

const ROOT = join(import.meta.dirname, '..', '..')
const run = promisify(execFile)
const SECRET = 'hostile-suite-secret-hostile-suite-secret-01'
const READY_WITHIN_MS = 120_000
const OUTPUT_KEPT = 20_000

export const ADMIN = { email: 'admin@hostile.example.test', password: 'hostile suite password 1' }

export class Service {
  private output = ''
  private constructor(
    private readonly child: ChildProcess,
    readonly baseUrl: string,
    readonly contentUrl: string,
    private readonly dataDir: string,
  ) {
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString('utf8')).slice(-OUTPUT_KEPT)
    }
    child.stdout?.on('data', keep)
    child.stderr?.on('data', keep)
  }

  /** The exit code or signal once the process has exited; null while it runs. */
  get exited(): string | null {
    const { exitCode, signalCode } = this.child
    return exitCode !== null ? `exit code ${exitCode}` : signalCode !== null ? `signal ${signalCode}` : null
  }

  /** The end of what the service wrote (its log at warn and above). */
  tail(lines = 15): string {
    return this.output.trim().split('\n').slice(-lines).join('\n')
  }

  static async start(): Promise<Service> {
    const dataDir = mkdtempSync(join(tmpdir(), 'seaworthy-hostile-'))
    const port = await freeServicePort()
    const env = {
      ...process.env,
      ...SERVICE_ENV,
      DATA_DIR: dataDir,
      SEAWORTHY_JWT_SECRET: SECRET,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
    }
    const cli = ['--import', 'tsx', join(ROOT, 'src', 'cli.ts')]
    const org = [
      'org',
      'create',
      '--name',
      'Hostile Line',
      '--admin-email',
      ADMIN.email,
      '--admin-password',
      ADMIN.password,
      '--products',
      'learn,crew',
    ]
    await run(process.execPath, [...cli, ...org], { env, cwd: ROOT })
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'server.ts')], { env, cwd: ROOT })
    const service = new Service(child, `http://127.0.0.1:${port}`, `http://127.0.0.1:${port + 1}`, dataDir)
    await service.ready()
    return service
  }

  private async ready(): Promise<void> {
    const deadline = Date.now() + READY_WITHIN_MS
    while (Date.now() < deadline) {
      if (this.exited) throw new Error(`the service exited (${this.exited}) before it was ready:\n${this.tail()}`)
      const status = await fetch(`${this.baseUrl}/readyz`).then(
        (r) => r.status,
        () => 0,
      )
      if (status === 200) return
      await sleep(100)
    }
    throw new Error(`the service was not ready within ${READY_WITHIN_MS / 1000} s:\n${this.tail()}`)
  }

  async stop(): Promise<void> {
    if (!this.exited) {
      const exit = new Promise((resolve) => this.child.once('exit', resolve))
      this.child.kill('SIGTERM')
      await exit
    }
    rmSync(this.dataDir, { recursive: true, force: true })
  }
}
