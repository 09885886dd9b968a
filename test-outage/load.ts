import { setTimeout as sleep } from 'node:timers/promises'

// A steady mixed load over real HTTP: a few workers each sending one request at a time, with a short
// pause between requests, recording every answer. Bounded in count and time: it stops by itself.

export interface LoadRequest {
  name: string
  method: 'GET' | 'POST'
  path: string
  body?: unknown
  /** The table a 2xx of this write created a row in (the answer's `id`). */
  creates?: string
}

export interface Sample {
  name: string
  start: number
  end: number
  status: number
  /** A network failure or the client's own timeout: the server never answered. */
  error?: string
  created?: { table: string; id: string }
}

export interface LoadOptions {
  baseUrl: string
  token: string
  next: (n: number) => LoadRequest
  workers: number
  pauseMs: number
  maxRequests: number
  maxMs: number
}

const CLIENT_TIMEOUT_MS = 10_000

export class SteadyLoad {
  readonly samples: Sample[] = []
  private issued = 0
  private stopped = false
  private readonly started = Date.now()
  private readonly done: Promise<void>

  constructor(private readonly options: LoadOptions) {
    this.done = Promise.all(Array.from({ length: options.workers }, () => this.worker())).then(() => {})
  }

  private get exhausted(): boolean {
    return this.stopped || this.issued >= this.options.maxRequests || Date.now() - this.started > this.options.maxMs
  }

  private async worker(): Promise<void> {
    while (!this.exhausted) {
      this.samples.push(await this.send(this.options.next(this.issued++)))
      await sleep(this.options.pauseMs)
    }
  }

  private async send(request: LoadRequest): Promise<Sample> {
    const start = Date.now()
    try {
      const response = await fetch(`${this.options.baseUrl}${request.path}`, {
        method: request.method,
        headers: { authorization: `Bearer ${this.options.token}`, ...(request.body ? { 'content-type': 'application/json' } : {}) },
        body: request.body ? JSON.stringify(request.body) : undefined,
        signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
      })
      const text = await response.text()
      const sample: Sample = { name: request.name, start, end: Date.now(), status: response.status }
      if (request.creates && response.status < 300) sample.created = { table: request.creates, id: JSON.parse(text).id }
      return sample
    } catch (error) {
      return { name: request.name, start, end: Date.now(), status: 0, error: String(error) }
    }
  }

  /** Waits until `count` more answers have come in (or the load is exhausted). */
  async answers(count: number): Promise<void> {
    const target = this.samples.length + count
    while (this.samples.length < target && !this.exhausted) await sleep(10)
    if (this.samples.length < target) throw new Error(`The load stopped after ${this.samples.length} answers, before ${target}`)
  }

  async stop(): Promise<void> {
    this.stopped = true
    await this.done
  }
}
