// The content origin's download host (src/modules/learning/offline/content-worker), framed hidden and spoken to by
// postMessage: course files are kept and played on that origin only (DECISIONS §13.3), and this side keeps the
// user's token. Messages are taken from that origin and that frame only.

export interface HostRecord {
  key: number
  sessionId: string
  kind: 'statement' | 'commit' | 'document'
  record: Record<string, unknown>
  at: number
}

interface Host {
  call<T>(op: string, body: Record<string, unknown>, onProgress?: (progress: { bytes: number; total: number }) => void): Promise<T>
}

const hosts = new Map<string, Promise<Host>>()
let nextId = 0
/** How long the host may take to load (from the device when offline) before the console gives up. */
const LOAD_MS = 20_000

function openHost(contentOrigin: string): Promise<Host> {
  return new Promise((resolve, reject) => {
    const frame = document.createElement('iframe')
    frame.src = `${contentOrigin}/offline/host`
    frame.title = 'Offline courses'
    frame.hidden = true
    const pending = new Map<number, { resolve: (v: never) => void; reject: (e: Error) => void; progress?: (p: never) => void }>()
    const timer = window.setTimeout(() => reject(new Error('The course store on this device did not open')), LOAD_MS)
    window.addEventListener('message', (event) => {
      if (event.origin !== contentOrigin || event.source !== frame.contentWindow) return
      const data = event.data as { ready?: boolean; id?: number; progress?: never; result?: never; error?: string }
      if (data.ready) {
        window.clearTimeout(timer)
        resolve({
          call: (op, body, onProgress) =>
            new Promise((done, fail) => {
              const id = ++nextId
              pending.set(id, { resolve: done as (v: never) => void, reject: fail, progress: onProgress as (p: never) => void })
              frame.contentWindow?.postMessage({ ...body, op, id }, contentOrigin)
            }),
        })
        return
      }
      const waiting = data.id === undefined ? undefined : pending.get(data.id)
      if (!waiting) return
      if (data.progress) waiting.progress?.(data.progress)
      else {
        pending.delete(data.id as number)
        if (data.error !== undefined) waiting.reject(new Error(data.error))
        else waiting.resolve(data.result as never)
      }
    })
    document.body.append(frame)
  })
}

/** The host of a content origin, opened once per page. */
export function contentHost(contentOrigin: string): Promise<Host> {
  let host = hosts.get(contentOrigin)
  if (!host) {
    host = openHost(contentOrigin)
    host.catch(() => hosts.delete(contentOrigin))
    hosts.set(contentOrigin, host)
  }
  return host
}
