import { DetailedError, type HttpRequest, type HttpResponse, type HttpStack, Upload } from 'tus-js-client'
import type { SeaworthyClient } from '../../../client/index.js'
import { ApiError, unwrap } from '../api.js'

/** The service's tus endpoint (DECISIONS §16): the same uploads as the intent of §5, sent resumably. */
const ENDPOINT = '/api/v1/shared/resumable-uploads'

// Within one pass a dropped request is tried again a little later; past these the pass stops and the next one
// continues from where the service says the bytes stand.
const RETRY_DELAYS_MS = [0, 3_000, 10_000]

/**
 * tus requests through the session's typed client, so each carries the session's current token (refreshed
 * as every other request's) and a 401 is handled as everywhere else.
 */
class SessionRequest implements HttpRequest {
  private readonly headers: Record<string, string> = {}
  private readonly aborted = new AbortController()
  constructor(
    private readonly api: SeaworthyClient,
    private readonly method: string,
    private readonly url: string,
  ) {}
  getMethod = () => this.method
  getURL = () => this.url
  setHeader(name: string, value: string) {
    this.headers[name] = value
  }
  getHeader = (name: string) => this.headers[name]
  // fetch reports no upload progress; the queue shows none.
  setProgressHandler = () => undefined
  getUnderlyingObject = () => null
  abort = async () => this.aborted.abort()

  async send(body?: Blob): Promise<HttpResponse> {
    const path = new URL(this.url, window.location.origin).pathname
    const init = { headers: this.headers, body, bodySerializer: (raw: unknown) => raw, parseAs: 'text', signal: this.aborted.signal }
    const { data, error, response } = (await this.api.request(this.method.toLowerCase() as never, path as never, init as never)) as {
      data?: unknown
      error?: unknown
      response: Response
    }
    const answer = data ?? error
    const text = answer === undefined ? '' : typeof answer === 'string' ? answer : JSON.stringify(answer)
    return {
      getStatus: () => response.status,
      getHeader: (name: string) => response.headers.get(name) ?? undefined,
      getBody: () => text,
      getUnderlyingObject: () => response,
    }
  }
}

const sessionStack = (api: SeaworthyClient): HttpStack => ({
  createRequest: (method, url) => new SessionRequest(api, method, url),
  getName: () => 'SessionStack',
})

/** tus's failure as the console's: the service's refusal keeps its status; a dropped link is status 0. */
function asApiError(error: Error): ApiError {
  const status = error instanceof DetailedError ? (error.originalResponse?.getStatus() ?? 0) : 0
  if (status === 0) return new ApiError(0, 'The file could not be sent: the link dropped. It continues at the next pass.')
  return new ApiError(status, error instanceof DetailedError ? error.originalResponse?.getBody() || error.message : error.message)
}

/**
 * Sends `file` with tus, continuing the upload at `resumeFrom` (its URL) when given; `onUrl` gets the upload's
 * URL as soon as the service makes it, to keep for the next pass. A URL the service no longer knows (expired)
 * starts a new upload. Then finalizes (already done by the last bytes; answers at once) and answers the id.
 */
export async function uploadResumably(
  api: SeaworthyClient,
  kind: string,
  file: File,
  resumeFrom: string | null,
  onUrl: (url: string) => Promise<void>,
): Promise<string> {
  const url = await new Promise<string>((resolve, reject) => {
    const upload: Upload = new Upload(file, {
      endpoint: `${window.location.origin}${ENDPOINT}`,
      uploadUrl: resumeFrom,
      metadata: { kind, filename: file.name, filetype: file.type },
      httpStack: sessionStack(api),
      retryDelays: RETRY_DELAYS_MS,
      // The queued document keeps the URL, per user; nothing else on the device does.
      storeFingerprintForResuming: false,
      onUploadUrlAvailable: () => onUrl(upload.url!),
      onSuccess: () => resolve(upload.url!),
      onError: (error) => reject(asApiError(error)),
    })
    upload.start()
  })
  const uploadId = new URL(url, window.location.origin).pathname.split('/').pop()!
  await unwrap(api.POST('/api/v1/shared/uploads/{upload_id}/finalize', { params: { path: { upload_id: uploadId } } }))
  return uploadId
}
