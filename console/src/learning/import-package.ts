import type { components, SeaworthyClient } from '../../../client/index.js'
import { unwrap } from '../api.js'

export type CourseImport = components['schemas']['CourseImport']

const POLL_MS = 500

/** The import job started for a finished package upload, polled until it completes or fails. */
export async function importPackage(api: SeaworthyClient, uploadId: string, onJob: (job: CourseImport) => void): Promise<CourseImport> {
  let job = await unwrap(api.POST('/api/v1/learn/course-imports', { body: { uploadId } }))
  onJob(job)
  while (job.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    job = await unwrap(api.GET('/api/v1/learn/course-imports/{import_id}', { params: { path: { import_id: job.id } } }))
    onJob(job)
  }
  return job
}

/** A package's MIME type as the upload intent takes it: a zip, or a cmi5.xml alone. */
export function packageMime(file: File): 'application/zip' | 'text/xml' | null {
  const name = file.name.toLowerCase()
  if (name.endsWith('.zip') || file.type === 'application/zip' || file.type === 'application/x-zip-compressed') return 'application/zip'
  if (name.endsWith('.xml')) return 'text/xml'
  return null
}
