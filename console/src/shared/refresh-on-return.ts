import { type QueryKey, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'

/**
 * Reads the given queries again when the person comes back to the tab (focus or the page shown again),
 * so a course taken in another tab or window shows its result without a reload.
 */
export function useRefreshOnReturn(keys: QueryKey[]): void {
  const queryClient = useQueryClient()
  const joined = JSON.stringify(keys)
  useEffect(() => {
    const refresh = () => {
      if (document.visibilityState !== 'visible') return
      for (const queryKey of JSON.parse(joined) as QueryKey[]) void queryClient.invalidateQueries({ queryKey })
    }
    window.addEventListener('focus', refresh)
    document.addEventListener('visibilitychange', refresh)
    // A page restored from the back/forward cache after the course's returnURL: no new load, only `pageshow`.
    window.addEventListener('pageshow', refresh)
    return () => {
      window.removeEventListener('focus', refresh)
      document.removeEventListener('visibilitychange', refresh)
      window.removeEventListener('pageshow', refresh)
    }
  }, [queryClient, joined])
}
