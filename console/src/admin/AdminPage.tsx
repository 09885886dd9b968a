import { TabbedPage } from '../shared/TabbedPage.js'
import { AuditTab } from './AuditTab.js'
import { OrganizationTab } from './OrganizationTab.js'
import { RequirementsTab } from './RequirementsTab.js'
import { SsoTab } from './SsoTab.js'

export default function AdminPage() {
  return (
    <TabbedPage
      title="Admin"
      tabs={[
        { value: 'organization', label: 'Organization', content: <OrganizationTab /> },
        { value: 'requirements', label: 'Requirements', content: <RequirementsTab /> },
        { value: 'sso', label: 'Single sign-on', content: <SsoTab /> },
        { value: 'audit', label: 'Audit events', content: <AuditTab /> },
      ]}
    />
  )
}
