import { createBrowserRouter, Navigate } from 'react-router'
import { RequireRole, RequireSession } from './auth/guards.js'
import { EVERYONE, homeOf, MANAGERS, STAFF } from './auth/roles.js'
import { InvitePage, ResetPage } from './auth/SetPasswordPage.js'
import { SignInPage } from './auth/SignInPage.js'
import { SsoCallbackPage } from './auth/SsoCallbackPage.js'
import { useSession } from './auth/session.js'
import { Shell } from './layout/Shell.js'
import { Loading } from './shared/Loading.js'

function Home() {
  return <Navigate to={homeOf(useSession().role)} replace />
}

/** Each screen is its own chunk, so the first load carries only the sign-in and the shell. */
const screen = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default })

export const router = createBrowserRouter(
  [
    { path: '/sign-in', Component: SignInPage },
    { path: '/sso', Component: SsoCallbackPage },
    { path: '/invite/:token', Component: InvitePage },
    { path: '/reset/:token', Component: ResetPage },
    {
      Component: RequireSession,
      // Shown while a lazily loaded screen's code arrives on the first page load.
      HydrateFallback: Loading,
      children: [
        {
          Component: Shell,
          children: [
            { index: true, Component: Home },
            {
              element: <RequireRole roles={EVERYONE} />,
              children: [
                { path: '/me', lazy: screen(() => import('./crew/MyProfilePage.js')) },
                { path: '/me/assignments', lazy: screen(() => import('./assignments/MyAssignmentsPage.js')) },
                { path: '/me/training', lazy: screen(() => import('./training/MyTrainingPage.js')) },
                { path: '/me/documents', lazy: screen(() => import('./documents/MyDocumentsPage.js')) },
                { path: '/me/contract', lazy: screen(() => import('./contract/MyNextContractPage.js')) },
                { path: '/account/password', lazy: screen(() => import('./auth/PasswordPage.js')) },
              ],
            },
            {
              element: <RequireRole roles={STAFF} />,
              children: [
                { path: '/review', lazy: screen(() => import('./review/ReviewPage.js')) },
                { path: '/crew', lazy: screen(() => import('./crew/RosterPage.js')) },
                { path: '/crew/:userId', lazy: screen(() => import('./crew/ProfilePage.js')) },
                { path: '/readiness', lazy: screen(() => import('./readiness/ReadinessPage.js')) },
                { path: '/expiring', lazy: screen(() => import('./readiness/ExpiringPage.js')) },
                { path: '/sea-service', lazy: screen(() => import('./readiness/SeaServicePage.js')) },
                { path: '/ships', lazy: screen(() => import('./ships/ShipsPage.js')) },
              ],
            },
            {
              element: <RequireRole roles={MANAGERS} />,
              children: [
                { path: '/assignments', lazy: screen(() => import('./assignments/AssignmentsPage.js')) },
                { path: '/learning', lazy: screen(() => import('./learning/LearningPage.js')) },
                { path: '/admin', lazy: screen(() => import('./admin/AdminPage.js')) },
              ],
            },
            { path: '*', element: <Navigate to="/" replace /> },
          ],
        },
      ],
    },
  ],
  { basename: '/console' },
)
