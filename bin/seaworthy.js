#!/usr/bin/env node
// Runs the compiled CLI when built, else the TypeScript source through tsx.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const built = join(root, 'dist/src/cli.js')
if (existsSync(built)) {
  await import(built)
} else {
  const { register } = await import('tsx/esm/api')
  register()
  await import(join(root, 'src/cli.ts'))
}
