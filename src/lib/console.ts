import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'
import { packageDirectorySync } from 'package-directory'

/**
 * The console's own policy. Scripts stay same-origin only; Mantine sets its theme and layout through
 * style attributes and one <style> element, which only 'unsafe-inline' for styles allows. The API keeps
 * the stricter policy of security-headers.ts. blob: lets pdf.js hand its drawn fonts to the canvas.
 * `fileOrigin` (an S3 bucket's host) is where the review previews load images and PDFs from.
 */
function consolePolicy(fileOrigin: string | null, contentOrigin: string | null): string {
  const files = fileOrigin ? ` ${fileOrigin}` : ''
  return [
    "default-src 'self'",
    "base-uri 'self'",
    `connect-src 'self'${files}`,
    "font-src 'self' data:",
    "form-action 'self'",
    // The content origin's download host, framed hidden to keep courses for offline play (DECISIONS §16).
    `frame-src 'self'${contentOrigin ? ` ${contentOrigin}` : ''}`,
    "frame-ancestors 'none'",
    `img-src 'self' data: blob:${files}`,
    "object-src 'none'",
    "script-src 'self'",
    "script-src-attr 'none'",
    "style-src 'self' 'unsafe-inline'",
    "worker-src 'self' blob:",
  ].join('; ')
}

/** Where `npm run build:console` puts the built files: dist/console at the package root (from src/ or dist/src/). */
function consoleDirectory(): string {
  const root = packageDirectorySync({ cwd: dirname(fileURLToPath(import.meta.url)) })
  if (!root) throw new Error('src/lib/console.ts is outside its package')
  return join(root, 'dist', 'console')
}

/**
 * Serves the office console at /console (and / leads there): the built files, and index.html for every other path under it
 * (the console's own router reads the path). Left out of the OpenAPI document: it is not the API.
 */
export async function registerConsole(
  app: FastifyInstance,
  {
    root = consoleDirectory(),
    fileOrigin = null,
    contentOrigin = null,
  }: { root?: string; fileOrigin?: string | null; contentOrigin?: string | null } = {},
): Promise<void> {
  const policy = consolePolicy(fileOrigin, contentOrigin)
  // The service's root is where a person types the address: it leads to the console.
  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/console/'))
  await app.register(
    async (scope) => {
      scope.addHook('onRequest', async (_request, reply) => {
        reply.header('content-security-policy', policy)
      })
      if (!existsSync(join(root, 'index.html'))) {
        scope.get('/*', { schema: { hide: true } }, async (_request, reply) =>
          reply.code(404).type('text/plain').send('The console is not built: run `npm run build:console`.'),
        )
        return
      }
      // Built asset names carry a content hash, so they never change; index.html is asked for anew each time.
      await scope.register(fastifyStatic, {
        root,
        index: 'index.html',
        schemaHide: true,
        cacheControl: false,
        setHeaders: (res, path) =>
          res.setHeader('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache'),
      })
      // Any other path is a screen of the console's router; a missing asset stays a 404, so a stale tab never runs HTML as a script.
      scope.setNotFoundHandler((request, reply) =>
        request.url.startsWith('/console/assets/') ? reply.code(404).type('text/plain').send('Not found') : reply.sendFile('index.html'),
      )
    },
    { prefix: '/console' },
  )
}
