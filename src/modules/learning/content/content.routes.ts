import { extname } from 'node:path'
import { contentType } from 'mime-types'
import rangeParser from 'range-parser'
import Type from 'typebox'
import { AppError, notFound } from '../../../lib/errors.js'
import type { Storage } from '../../../lib/storage.js'
import type { App } from '../../types.js'
import { packagePrefix } from '../packages/packages.import.js'
import type { ContentPaths } from './content.paths.js'

// A package version never changes: its files may be kept for as long as a browser likes, by that browser only
// (the session path is the learner's own).
const IMMUTABLE = 'private, max-age=31536000, immutable'

const ContentParams = Type.Object({ token: Type.String(), '*': Type.String() })

/** A path inside the package: no backslashes, and no empty, `.` or `..` segment (no way up, no folder, no second name for a file). */
const isPackagePath = (path: string) =>
  !path.includes('\\') && path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..')

/**
 * Package files inside a launch session's path, on the content origin only: the media type from the
 * file's extension, single byte ranges (audio and video seek with them; If-Range resumes a download), ETag and
 * immutable caching.
 */
export function contentRoutes(app: App, { storage, paths }: { storage: Storage; paths: ContentPaths }): void {
  app.get('/:token/*', { schema: { hide: true, params: ContentParams } }, async (request, reply) => {
    const grant = paths.read(request.params.token)
    if (grant === 'expired') throw new AppError(403, 'This launch session has expired; launch the course again')
    const path = request.params['*']
    if (!grant || !isPackagePath(path)) throw notFound('File')
    const key = packagePrefix(grant.orgId, grant.packageId) + path
    const stored = await storage.stat(key)
    if (!stored) throw notFound('File')
    const etag = `"${grant.packageId}"`
    reply.headers({
      'content-type': contentType(extname(path)) || 'application/octet-stream',
      'cache-control': IMMUTABLE,
      etag,
      'accept-ranges': 'bytes',
    })
    if (request.headers['if-none-match'] === etag) return reply.status(304).send()
    // If-Range (RFC 9110 §13.1.5): a range of the version the client holds, else the whole file (a download resumed
    // over a file that changed starts over).
    const ifRange = request.headers['if-range']
    const range = ifRange === undefined || ifRange === etag ? request.headers.range : undefined
    const ranges = range ? rangeParser(stored.size, range, { combine: true }) : -2
    if (ranges === -1) return reply.status(416).header('content-range', `bytes */${stored.size}`).send()
    // No range, a malformed one, or several: the whole file (RFC 9110 lets a server ignore Range).
    if (ranges === -2 || ranges.length !== 1) return reply.header('content-length', stored.size).send(storage.read(key))
    const [{ start, end }] = ranges
    return reply
      .status(206)
      .headers({ 'content-range': `bytes ${start}-${end}/${stored.size}`, 'content-length': end - start + 1 })
      .send(storage.read(key, { start, end }))
  })
}
