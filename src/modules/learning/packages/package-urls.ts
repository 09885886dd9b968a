import type { PackageFiles } from './package-model.js'

/**
 * Whether a relative URL of the manifest names a file of the package: its path (no query, no
 * fragment, percent-decoded) resolved against the package root, never above it.
 */
export function resolvesInPackage(url: string, files: PackageFiles, base = ''): boolean {
  if (files === null || !URL.canParse(url, 'http://package.invalid/')) return false
  // A browser resolves `..` against the session path the package is served under: never above the package.
  if (/(^|\/)\.\.(\/|$)/.test(`${base}${url.split(/[?#]/)[0]}`)) return false
  const resolved = new URL(url, new URL(base, 'http://package.invalid/'))
  if (resolved.host !== 'package.invalid') return false
  try {
    return files.has(decodeURIComponent(resolved.pathname.slice(1)))
  } catch {
    return false
  }
}
