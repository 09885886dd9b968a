// The production build of the server and the CLI: every module of src/ transpiled one to
// one into dist/src by esbuild, in about a second where tsc takes a minute (type checking is
// `npm run check`'s job). Plain JavaScript, so it runs at install time with no TypeScript loader.
import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'

const entryPoints = readdirSync('src', { recursive: true })
  .filter((file) => file.endsWith('.ts'))
  .map((file) => join('src', file))

rmSync('dist/src', { recursive: true, force: true })
await build({
  entryPoints,
  outdir: 'dist/src',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
})
