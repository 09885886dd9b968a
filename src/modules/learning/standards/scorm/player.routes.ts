import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import Type from 'typebox'
import { AppError, notFound } from '../../../../lib/errors.js'
import type { App } from '../../../types.js'
import { type ContentPaths, PLAYER_PREFIX } from '../../content/content.paths.js'
import { PLAYER_SCRIPT } from './player-script.js'
import { PLAYER_SEQUENCING_SCRIPT } from './player-sequencing-script.js'

export const PLAYER_ASSETS_PREFIX = '/player-assets'

/** A script served under a name that carries its content's hash, so a browser may keep it for good. */
const asset = (name: string, body: string | Buffer) => {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16)
  return { path: `${name}.${hash}.js`, body }
}

/** scorm-again's browser bundle (it sets window.Scorm12API and window.Scorm2004API), from the installed package. */
function scormAgainBundle(): Buffer {
  const main = createRequire(import.meta.url).resolve('scorm-again')
  return readFileSync(join(dirname(main), 'scorm-again.min.js'))
}

const page = (scripts: string[]) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Course</title>
<style>html, body, iframe { margin: 0; width: 100%; height: 100%; border: 0; display: block; } p { font: 16px system-ui, sans-serif; margin: 2em; }</style>
${scripts.map((src) => `<script src="${PLAYER_ASSETS_PREFIX}/${src}" defer></script>`).join('\n')}
</head>
<body><p id="player-status" role="status">Loading the course…</p></body>
</html>
`

/** The player's page and scripts, built once: served here, and listed for a download to play offline (DECISIONS §16). */
export const playerFiles = (() => {
  let built: { assets: { path: string; body: string | Buffer }[]; html: string } | undefined
  return () => {
    if (!built) {
      const assets = [
        asset('scorm-again', scormAgainBundle()),
        asset('player-sequencing', PLAYER_SEQUENCING_SCRIPT),
        asset('player', PLAYER_SCRIPT),
      ]
      built = { assets, html: page(assets.map((a) => a.path)) }
    }
    return built
  }
})()

const TokenParams = Type.Object({ token: Type.String() })
const AssetParams = Type.Object({ file: Type.String() })

/**
 * The SCORM player (DECISIONS §13.4) on the content origin: `/player/<session token>?sco=…` serves a
 * page whose scripts provide the runtime and frame the SCO from the same session path, so the SCO
 * finds the API in its parent. The page holds nothing of the session but its token; the credential
 * stays in the URL's fragment.
 */
export function playerRoutes(app: App, { paths }: { paths: ContentPaths }): void {
  const { assets, html } = playerFiles()
  const byPath = new Map(assets.map((a) => [a.path, a.body]))

  app.get(`${PLAYER_PREFIX}/:token`, { schema: { hide: true, params: TokenParams } }, async (request, reply) => {
    const grant = paths.read(request.params.token)
    if (grant === 'expired') throw new AppError(403, 'This launch session has expired; launch the course again')
    if (!grant) throw notFound('Player')
    return reply.headers({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).send(html)
  })

  app.get(`${PLAYER_ASSETS_PREFIX}/:file`, { schema: { hide: true, params: AssetParams } }, async (request, reply) => {
    const body = byPath.get(request.params.file)
    if (body === undefined) throw notFound('File')
    return reply
      .headers({ 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=31536000, immutable' })
      .send(body)
  })
}
