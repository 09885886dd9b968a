import { useQuery } from '@tanstack/react-query'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'

/** The last 200 assignments: enough for the roles in use and a person's bookings near the form's dates. */
function useRecentAssignments(userId?: string | null) {
  const { api } = useSession()
  return useQuery({
    queryKey: ['assignments', 'recent', userId ?? null],
    queryFn: () => unwrap(api.GET('/api/v1/assignments/', { params: { query: { limit: 200, user_id: userId ?? undefined } } })),
    enabled: userId !== null,
  })
}

/**
 * The roles to suggest: the ranks the requirements matrix names, then the organization's past roles, each once
 * (trimmed, case-insensitively, as readiness matches them). Another role may be typed: it has no requirements
 * of its own, which readiness then warns of (no_requirements).
 */
export function useRoleSuggestions(): string[] {
  const { api } = useSession()
  const matrix = useQuery({ queryKey: ['requirements'], queryFn: () => unwrap(api.GET('/api/v1/crew/requirements')) })
  const recent = useRecentAssignments()
  const seen = new Map<string, string>()
  for (const role of [...(matrix.data?.items ?? []).map((item) => item.role), ...(recent.data?.items ?? []).map((a) => a.role)]) {
    const trimmed = role.trim()
    if (trimmed && trimmed !== '*' && !seen.has(trimmed.toLowerCase())) seen.set(trimmed.toLowerCase(), trimmed)
  }
  return [...seen.values()]
}

/**
 * The person's other assignments whose dates meet [start, end] (an open end runs on): a double booking. Nothing
 * until a start date is given.
 */
export function useOverlapping(userId: string | null, start: string, end: string) {
  const recent = useRecentAssignments(userId)
  if (!userId || !start) return []
  return (recent.data?.items ?? []).filter((a) => (!a.startDate || !end || a.startDate <= end) && (!a.endDate || a.endDate >= start))
}
