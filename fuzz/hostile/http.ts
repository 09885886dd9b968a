import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'

// Requests as a hostile client sends them: the path exactly as written (no URL normalization, so `.`
// and `..` segments reach the server), any body (a buffer, or chunks given over time), and the answer
// taken as soon as it comes, even when the server stops reading the body and closes the connection.

export interface Answer {
  status: number
  headers: IncomingHttpHeaders
  text: string
}

export interface Sent {
  method?: string
  headers?: Record<string, string>
  body?: string | Buffer | AsyncIterable<Buffer>
  signal?: AbortSignal
}

/** `url`'s path and query are sent as they are. */
export function send(url: string, sent: Sent = {}): Promise<Answer> {
  const { protocol, hostname, port } = new URL(url)
  if (protocol !== 'http:') throw new Error(`not an http URL: ${url}`)
  const path = url.slice(url.indexOf('/', protocol.length + 2))
  return new Promise((resolve, reject) => {
    let answered = false
    const req = httpRequest({
      host: hostname,
      port,
      path,
      method: sent.method ?? 'GET',
      headers: sent.headers,
      agent: false,
      signal: sent.signal,
    })
    req.on('response', (res) => {
      answered = true
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', reject)
    })
    // A server that answers before the body is in (a limit crossed) may close the connection under it.
    req.on('error', (error) => {
      if (!answered) reject(error)
    })
    const { body } = sent
    if (body === undefined || typeof body === 'string' || Buffer.isBuffer(body)) {
      req.end(body)
      return
    }
    void (async () => {
      for await (const chunk of body) {
        if (answered || req.destroyed) return
        req.write(chunk)
      }
      req.end()
    })().catch((error) => {
      if (!answered) reject(error)
    })
  })
}

export const json = (answer: Answer): any => {
  try {
    return JSON.parse(answer.text)
  } catch {
    return undefined
  }
}

export const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`

/** The API as one signed-in user (or nobody): JSON in, JSON out. */
export class Api {
  constructor(
    readonly baseUrl: string,
    private readonly authorization?: string,
  ) {}

  async call(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<{ status: number; body: any; answer: Answer }> {
    const headers: Record<string, string> = {}
    if (this.authorization) headers.authorization = this.authorization
    if (body !== undefined) headers['content-type'] = 'application/json'
    const answer = await send(this.baseUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal })
    return { status: answer.status, body: json(answer), answer }
  }

  get = (path: string, signal?: AbortSignal) => this.call('GET', path, undefined, signal)
  post = (path: string, body?: unknown, signal?: AbortSignal) => this.call('POST', path, body, signal)
  delete = (path: string, signal?: AbortSignal) => this.call('DELETE', path, undefined, signal)

  /** The answer's body when it has `status`, else an error naming what came. */
  async expect(status: number, method: string, path: string, body?: unknown): Promise<any> {
    const res = await this.call(method, path, body)
    if (res.status !== status) throw new Error(`${method} ${path}: ${res.status} ${res.answer.text.slice(0, 300)} (expected ${status})`)
    return res.body
  }
}

/** A multipart/form-data body as a browser posts a presigned form: every field, then the file. */
export async function formBody(fields: Record<string, string>, file: Buffer): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  form.append('file', new Blob([new Uint8Array(file)]), 'package.zip')
  const request = new Request('http://localhost/', { method: 'POST', body: form })
  return { body: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type') ?? '' }
}
