import { AppShell, Button, Group, NavLink, Text, Title } from '@mantine/core'
import { Suspense } from 'react'
import { Link, Outlet, useLocation } from 'react-router'
import { MANAGERS, STAFF } from '../auth/roles.js'
import { useSession } from '../auth/session.js'
import type { Role } from '../auth/session-store.js'
import { Loading } from '../shared/Loading.js'

interface NavItem {
  to: string
  label: string
  roles: Role[]
}

const NAV: NavItem[] = [
  { to: '/me', label: 'My profile', roles: ['crew'] },
  { to: '/me/assignments', label: 'My assignments', roles: ['crew'] },
  { to: '/review', label: 'Review queue', roles: STAFF },
  { to: '/crew', label: 'Crew', roles: STAFF },
  { to: '/readiness', label: 'Fleet readiness', roles: STAFF },
  { to: '/expiring', label: 'Expiring documents', roles: STAFF },
  { to: '/sea-service', label: 'Sea service', roles: STAFF },
  { to: '/assignments', label: 'Assignments', roles: MANAGERS },
  { to: '/learning', label: 'Learning', roles: MANAGERS },
  { to: '/admin', label: 'Admin', roles: MANAGERS },
]

export function Shell() {
  const { me, role, signOut } = useSession()
  const { pathname } = useLocation()
  const items = NAV.filter((item) => item.roles.includes(role))
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: 0 }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Title order={2} size="h4">
            Seaworthy · {me.organization.name}
          </Title>
          <Group>
            <Text size="sm">
              {me.user.firstName} {me.user.lastName} ({role.replace('_', ' ')})
            </Text>
            <Button variant="subtle" size="xs" component={Link} to="/account/password">
              Change password
            </Button>
            <Button variant="default" size="xs" onClick={signOut}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label="Main">
        {items.map((item) => (
          <NavLink
            key={item.to}
            component={Link}
            to={item.to}
            label={item.label}
            active={pathname === item.to || (item.to !== '/me' && pathname.startsWith(`${item.to}/`))}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  )
}
