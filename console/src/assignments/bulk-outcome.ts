/** What happened to one assignment of a bulk action. */
export interface BulkOutcome {
  id: string
  ok: boolean
  reason: string | null
}

/** Per id: failed when the service lists it as failed, with the service's own sentence when it gives one. */
export function outcomesOf(ids: string[], failedIds: string[], errors: string[] = []): BulkOutcome[] {
  const failed = new Set(failedIds)
  return ids.map((id) => {
    if (!failed.has(id)) return { id, ok: true, reason: null }
    // The service writes each error as "<assignment id>: <problem>".
    const reasons = errors.filter((e) => e.startsWith(`${id}: `)).map((e) => e.slice(id.length + 2))
    return { id, ok: false, reason: reasons.length ? reasons.join('; ') : 'Not found in your organization' }
  })
}
