import { useQuery } from '@tanstack/react-query'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'

/** The organization's ships as choices of a select. */
export function useShipOptions(): { value: string; label: string }[] {
  const { api } = useSession()
  const ships = useQuery({
    queryKey: ['ships'],
    queryFn: () => unwrap(api.GET('/api/v1/shared/ships', { params: { query: { limit: 200 } } })),
  })
  return (ships.data?.items ?? []).map((s) => ({ value: s.id, label: s.name }))
}
