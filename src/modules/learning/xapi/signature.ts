import { isDeepStrictEqual } from 'node:util'
import { compactVerify, decodeProtectedHeader, importX509 } from 'jose'
import { badRequest } from './errors.js'
import type { AttachmentContent } from './multipart.js'

type Json = Record<string, any>

export const SIGNATURE_USAGE = 'http://adlnet.gov/expapi/attachments/signature'
const ALGORITHMS = ['RS256', 'RS384', 'RS512']
/** What a signature does not cover: what the LRS sets, and the attachments (the signature is one of them). */
const UNSIGNED = new Set(['authority', 'stored', 'version', 'attachments'])

const signedPart = (statement: Json) => Object.fromEntries(Object.entries(statement).filter(([key]) => !UNSIGNED.has(key)))

function payloadOf(jws: string): unknown {
  const [, payload] = jws.split('.')
  try {
    return JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8'))
  } catch {
    return undefined
  }
}

/**
 * A signed statement (xAPI 1.0.3 §2.6): its signature attachment is a compact JWS with RS256, RS384
 * or RS512 whose payload is the statement itself; when the JWS carries its certificate (x5c) the
 * signature must verify with it.
 */
export async function assertSignature(statement: Json, contents: readonly AttachmentContent[], at: string): Promise<void> {
  const attachment = (statement.attachments ?? []).find((a: Json) => a.usageType === SIGNATURE_USAGE)
  if (!attachment) return
  const part = contents.find((c) => c.sha2 === attachment.sha2)
  if (!part) throw badRequest(`${at}: the signature attachment is missing`)
  const jws = part.content.toString('utf8').trim()
  let header: Json
  try {
    header = decodeProtectedHeader(jws)
  } catch {
    throw badRequest(`${at}: the signature is not a JWS`)
  }
  if (!ALGORITHMS.includes(header.alg)) throw badRequest(`${at}: the signature must use RS256, RS384 or RS512`)
  const payload = payloadOf(jws)
  if (!payload || typeof payload !== 'object') throw badRequest(`${at}: the signature's payload is not a JSON statement`)
  if (!isDeepStrictEqual(signedPart(payload as Json), signedPart({ ...statement, id: (payload as Json).id ?? statement.id }))) {
    throw badRequest(`${at}: the signature's payload is not this statement`)
  }
  if (Array.isArray(header.x5c) && typeof header.x5c[0] === 'string') {
    const pem = `-----BEGIN CERTIFICATE-----\n${header.x5c[0]}\n-----END CERTIFICATE-----`
    const verified = await importX509(pem, header.alg)
      .then((key) => compactVerify(jws, key))
      .then(() => true)
      .catch(() => false)
    if (!verified) throw badRequest(`${at}: the signature does not verify with its certificate`)
  }
}
