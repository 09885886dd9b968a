import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { LoadResult, LoadSpec } from './load.js'
import { pinned } from './server.js'

/** Runs bench/load.ts (autocannon) in a process of its own, so the load does not share an event loop with the harness. */
export function runLoad(spec: LoadSpec, name: string, workDir: string): Promise<LoadResult> {
  const file = join(workDir, `${name}.json`)
  writeFileSync(file, JSON.stringify(spec))
  return new Promise((resolve, reject) => {
    const command = pinned(process.env.BENCH_LOAD_CPUS, [process.execPath, '--import', 'tsx', 'bench/load.ts', file])
    const child = spawn(...command, { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (chunk) => {
      out += chunk
    })
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load process for ${name} exited with ${code}`))))
  })
}
