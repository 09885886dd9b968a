// The install-time build (`prepare`): the server and the `seaworthy` command always; the console only
// where its build tools (devDependencies) are installed, so a production install (`npm ci
// --omit=dev`) still gets a working server and command line. See docs/production.md.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'

function run(command, args) {
  const { status } = spawnSync(command, args, { stdio: 'inherit' })
  if (status !== 0) process.exit(status ?? 1)
}

function installed(name) {
  try {
    createRequire(import.meta.url).resolve(`${name}/package.json`)
    return true
  } catch {
    return false
  }
}

run(process.execPath, ['scripts/build-server.mjs'])
// The demo course a first start imports (src/modules/learning/packages/demo-course.ts), from demo-course/.
if (installed('yazl') && installed('@xapi/cmi5')) run(process.execPath, ['scripts/build-demo-course.mjs'])
if (installed('vite')) run('npm', ['run', 'build:console'])
else if (!existsSync('dist/console/index.html')) {
  console.warn('seaworthy: the console was not built (its build tools are devDependencies); the API and the command line work.')
  console.warn('seaworthy: to serve the console, install with devDependencies and run `npm run build` (then `npm prune --omit=dev`).')
}
