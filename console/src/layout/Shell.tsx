import { AppShell, Burger, Button, Group, NavLink, Text, Title } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { Suspense } from 'react'
import { Link, Outlet, useLocation } from 'react-router'
import { MANAGERS, STAFF } from '../auth/roles.js'
import { useSession } from '../auth/session.js'
import type { Role } from '../auth/session-store.js'
import { OfflineStrip } from '../offline/OfflineStrip.js'
import { useOffline } from '../offline/useOffline.js'
import { Loading } from '../shared/Loading.js'

interface NavItem {
  to: string
  label: string
  roles: Role[]
}

const NAV: NavItem[] = [
  { to: '/me', label: 'My profile', roles: ['crew'] },
  { to: '/me/assignments', label: 'My assignments', roles: ['crew'] },
  { to: '/me/documents', label: 'My documents', roles: ['crew'] },
  { to: '/me/training', label: 'My training', roles: ['crew'] },
  { to: '/me/contract', label: 'My next contract', roles: ['crew'] },
  { to: '/review', label: 'Review queue', roles: STAFF },
  { to: '/crew', label: 'Crew', roles: STAFF },
  { to: '/readiness', label: 'Fleet readiness', roles: STAFF },
  { to: '/expiring', label: 'Expiring documents', roles: STAFF },
  { to: '/sea-service', label: 'Sea service', roles: STAFF },
  { to: '/ships', label: 'Ships', roles: STAFF },
  { to: '/assignments', label: 'Assignments', roles: MANAGERS },
  { to: '/learning', label: 'Learning', roles: MANAGERS },
  { to: '/admin', label: 'Admin', roles: MANAGERS },
]

export function Shell() {
  const { me, role, signOut: end, fetch } = useSession()
  const offline = useOffline(me, fetch)
  // Records not yet sent live only on this device: signing out keeps them, but the user decides knowing it.
  const signOut = () => {
    const waiting = offline.waiting + offline.refused
    if (
      waiting === 0 ||
      window.confirm(`${waiting} result${waiting === 1 ? '' : 's'} not yet sent stay on this device until you sign in again. Sign out?`)
    )
      end()
  }
  const { pathname } = useLocation()
  const items = NAV.filter((item) => item.roles.includes(role))
  // Below 768 px (Mantine's `sm`) the navigation is a drawer behind the burger; choosing a screen closes it.
  const [drawer, { toggle, close }] = useDisclosure(false)
  const who = `${me.user.firstName} ${me.user.lastName} (${role.replace('_', ' ')})`
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !drawer } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap" miw={0}>
            <Burger opened={drawer} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Navigation" />
            <Title order={2} size="h4" lineClamp={1}>
              Seaworthy · {me.organization.name}
            </Title>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" visibleFrom="sm">
              {who}
            </Text>
            <Button variant="subtle" size="xs" component={Link} to="/account/password" visibleFrom="sm">
              Change password
            </Button>
            <Button variant="default" size="xs" onClick={signOut}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label="Main">
        <Text size="sm" hiddenFrom="sm" px="sm" pb="xs">
          {who}
        </Text>
        {items.map((item) => (
          <NavLink
            key={item.to}
            component={Link}
            to={item.to}
            label={item.label}
            onClick={close}
            active={pathname === item.to || (item.to !== '/me' && pathname.startsWith(`${item.to}/`))}
          />
        ))}
        <NavLink component={Link} to="/account/password" label="Change password" onClick={close} hiddenFrom="sm" />
      </AppShell.Navbar>
      <AppShell.Main>
        <OfflineStrip state={offline} />
        <Suspense fallback={<Loading />}>{offline.keeping ? <Outlet /> : <Loading />}</Suspense>
      </AppShell.Main>
    </AppShell>
  )
}
