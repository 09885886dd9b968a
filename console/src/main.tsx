import '@mantine/core/styles.css'
import '@mantine/charts/styles.css'
import './phone.css'
import { MantineProvider } from '@mantine/core'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from 'react-router'
import { SessionProvider } from './auth/session.js'
import { router } from './routes.js'
import { resolver, theme } from './theme.js'

const queryClient = new QueryClient({
  // A 401 or 403 will not change by asking again; the session handles expiry. With no link reads pause (the screens
  // show the copy kept on the device, offline/useOffline.ts), while a write runs: it fails, or is kept for later.
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { networkMode: 'always' } },
})

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root')
createRoot(root).render(
  <MantineProvider theme={theme} cssVariablesResolver={resolver}>
    <QueryClientProvider client={queryClient}>
      <SessionProvider>
        <RouterProvider router={router} />
      </SessionProvider>
    </QueryClientProvider>
  </MantineProvider>,
)
