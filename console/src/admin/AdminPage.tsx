import { useSession } from '../auth/session.js'
import { TabbedPage } from '../shared/TabbedPage.js'
import { AuditTab } from './AuditTab.js'
import { OrganizationTab } from './OrganizationTab.js'
import { RequirementsTab } from './RequirementsTab.js'
import { SsoTab } from './SsoTab.js'
import { WebhooksTab } from './WebhooksTab.js'

export default function AdminPage() {
  // Webhooks are the admins' alone (the API answers 403 to an office admin), so only they see the tab.
  const { role } = useSession()
  return (
    <TabbedPage
      title="Admin"
      tabs={[
        { value: 'organization', label: 'Organization', content: <OrganizationTab /> },
        { value: 'requirements', label: 'Requirements', content: <RequirementsTab /> },
        { value: 'sso', label: 'Single sign-on', content: <SsoTab /> },
        { value: 'audit', label: 'Audit events', content: <AuditTab /> },
        ...(role === 'admin' ? [{ value: 'webhooks', label: 'Webhooks', content: <WebhooksTab /> }] : []),
      ]}
    />
  )
}
