import { useQuery } from '@tanstack/react-query'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'

/** Everything on a person's profile, one query each so every section shows as soon as it arrives. */
export function useProfileQueries(userId: string) {
  const { api } = useSession()
  const path = { params: { path: { user_id: userId } } }
  return {
    user: useQuery({ queryKey: ['user', userId], queryFn: () => unwrap(api.GET('/api/v1/shared/users/{user_id}', path)) }),
    documents: useQuery({
      queryKey: ['documents', userId],
      queryFn: () => unwrap(api.GET('/api/v1/crew/users/{user_id}/identity-documents', path)),
    }),
    certificates: useQuery({
      queryKey: ['certificates', userId],
      queryFn: () => unwrap(api.GET('/api/v1/crew/users/{user_id}/certificates', path)),
    }),
    experience: useQuery({
      queryKey: ['experience', userId],
      queryFn: () => unwrap(api.GET('/api/v1/crew/users/{user_id}/experience', path)),
    }),
    nextOfKin: useQuery({
      queryKey: ['next-of-kin', userId],
      queryFn: () => unwrap(api.GET('/api/v1/crew/users/{user_id}/next-of-kin', path)),
    }),
    verification: useQuery({
      queryKey: ['verification', userId],
      queryFn: () => unwrap(api.GET('/api/v1/crew/users/{user_id}/verification', path)),
    }),
  }
}
