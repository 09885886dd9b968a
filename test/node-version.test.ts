import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import semver from 'semver'
import { afterAll, describe, expect, it } from 'vitest'
import { nodeVersionProblem, supportedNodeRange } from '../src/lib/node-version.js'
import { TEST_SECRET } from './app.js'
import { freeServicePort } from './free-port.js'

// The supported Node.js lines (package.json's engines) against what CI runs and the README says, and the
// compiled entry points (test/global-setup.ts builds them) as a production install starts them.
const run = promisify(execFile)
const engines = supportedNodeRange()
const pinnedNode24 = /^NODE24_VERSION=(\S+)/m.exec(readFileSync('.ci/node24', 'utf8'))![1]
const children: ReturnType<typeof spawn>[] = []
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
})

/** Runs a compiled entry point on this Node.js binary made to report another version, as an older one would. */
async function runAsNode(version: string, args: string[]) {
  const fake = `data:text/javascript,Object.defineProperty(process.versions,'node',{value:'${version}'})`
  const env = { ...process.env, DATA_DIR: mkdtempSync(join(tmpdir(), 'seaworthy-node-')) }
  return run(process.execPath, ['--import', fake, ...args], { env }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error) => ({ code: error.code as number, stdout: error.stdout as string, stderr: error.stderr as string }),
  )
}

describe('supported Node.js lines', () => {
  it('are 20 from 20.19 and 24 from its first LTS release, and hold what CI runs on both', () => {
    expect(engines).toBe('^20.19.0 || ^24.11.0')
    expect(semver.satisfies(process.versions.node, engines)).toBe(true)
    expect(semver.major(pinnedNode24)).toBe(24)
    expect(semver.satisfies(pinnedNode24, engines)).toBe(true)
  })

  it('are the ones the README names, 24 LTS for production', () => {
    const readme = readFileSync('README.md', 'utf8')
    const setUp = readme.slice(readme.indexOf('## Set up'), readme.indexOf('\n## ', readme.indexOf('## Set up'))).replace(/\s+/g, ' ')
    expect(setUp).toContain('Node.js 24 LTS (24.11 or later), the line for production')
    expect(setUp).toContain('Node.js 20 (20.19 or later)')
  })

  it('refuse only a version below the lowest supported one', () => {
    const refused = (v: string) => `Seaworthy needs Node.js 20.19.0 or later (24 LTS in production); this is Node.js ${v}.`
    expect(nodeVersionProblem('20.18.3', engines)).toBe(refused('20.18.3'))
    expect(nodeVersionProblem('18.20.8', engines)).toBe(refused('18.20.8'))
    expect(nodeVersionProblem('20.19.0', engines)).toBeUndefined()
    expect(nodeVersionProblem('22.12.0', engines)).toBeUndefined()
    expect(nodeVersionProblem('24.11.0', engines)).toBeUndefined()
    expect(nodeVersionProblem(pinnedNode24, engines)).toBeUndefined()
  })
})

describe('the compiled server and CLI', { timeout: 300_000 }, () => {
  it('refuse to start on Node.js 20.18 with one line naming the version they need', async () => {
    const line = 'Seaworthy needs Node.js 20.19.0 or later (24 LTS in production); this is Node.js 20.18.3.\n'
    expect(await runAsNode('20.18.3', ['dist/src/server.js'])).toEqual({ code: 1, stdout: '', stderr: line })
    expect(await runAsNode('20.18.3', ['dist/src/cli.js', 'migrate'])).toEqual({ code: 1, stdout: '', stderr: line })
  })

  it('start, answer /readyz and stop with no warning, deprecations thrown', async () => {
    const port = await freeServicePort()
    const pgUrl = process.env.TEST_DATABASE_URL
    const { DATABASE_URL: _, TEST_DATABASE_URL: __, ...env } = process.env
    const child = spawn(process.execPath, ['--throw-deprecation', 'dist/src/server.js'], {
      env: {
        ...env,
        // On the shared PostgreSQL database its jobs would sweep every organization of the whole suite, holding row
        // locks other files wait on; the start and stop are what is tested.
        ...(pgUrl ? { DATABASE_URL: pgUrl, SEAWORTHY_JWT_SECRET: TEST_SECRET, RUN_JOBS: '0' } : {}),
        DATA_DIR: mkdtempSync(join(tmpdir(), 'seaworthy-node-')),
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    children.push(child)
    let stdout = ''
    let stderr = ''
    child.stdout!.on('data', (chunk) => {
      stdout += chunk
    })
    child.stderr!.on('data', (chunk) => {
      stderr += chunk
    })
    const exited = once(child, 'exit')
    while (!stdout.includes('Seaworthy is running')) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server did not start:\n${stdout}${stderr}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`)
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready' }])
    child.kill('SIGTERM')
    expect(await exited).toEqual([0, null])
    expect(stderr).toBe('')
    expect(stdout).not.toMatch(/warn/i)
  })
})
