import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { packageDirectorySync } from 'package-directory'
import semver from 'semver'

/** The Node.js lines the service supports: package.json's `engines.node`, the one place they are written. */
export function supportedNodeRange(): string {
  const root = packageDirectorySync({ cwd: dirname(fileURLToPath(import.meta.url)) })
  if (!root) throw new Error('src/lib/node-version.ts is outside its package')
  return JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node
}

/**
 * The line an entry point prints before refusing to start on a Node.js older than the lowest supported
 * version; undefined when `running` is that version or later (a newer line than CI runs is left to npm's
 * engines warning rather than refused).
 */
export function nodeVersionProblem(running: string, supported: string): string | undefined {
  const minimum = semver.minVersion(supported)
  if (!minimum || semver.gte(running, minimum)) return undefined
  return `Seaworthy needs Node.js ${minimum.version} or later (24 LTS in production); this is Node.js ${running}.`
}
