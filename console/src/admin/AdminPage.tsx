import { Stack, Tabs, Title } from '@mantine/core'
import { OrganizationTab } from './OrganizationTab.js'
import { RequirementsTab } from './RequirementsTab.js'
import { SsoTab } from './SsoTab.js'

export default function AdminPage() {
  return (
    <Stack>
      <Title order={1} size="h2">
        Admin
      </Title>
      <Tabs defaultValue="organization" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="organization">Organization</Tabs.Tab>
          <Tabs.Tab value="requirements">Requirements</Tabs.Tab>
          <Tabs.Tab value="sso">Single sign-on</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="organization" pt="md">
          <OrganizationTab />
        </Tabs.Panel>
        <Tabs.Panel value="requirements" pt="md">
          <RequirementsTab />
        </Tabs.Panel>
        <Tabs.Panel value="sso" pt="md">
          <SsoTab />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  )
}
