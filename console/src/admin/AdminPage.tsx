import { useCan } from '../shared/permissions.js'
import { TabbedPage } from '../shared/TabbedPage.js'
import { AuditTab } from './AuditTab.js'
import { LearningRecordsTab } from './learning-records/LearningRecordsTab.js'
import { OrganizationTab } from './OrganizationTab.js'
import { RequirementsTab } from './RequirementsTab.js'
import { SsoTab } from './SsoTab.js'
import { WebhooksTab } from './WebhooksTab.js'

export default function AdminPage() {
  // Everyone here reads the settings and requirements; the other tabs show only with their permission.
  const can = useCan()
  return (
    <TabbedPage
      title="Admin"
      tabs={[
        { value: 'organization', label: 'Organization', content: <OrganizationTab /> },
        { value: 'requirements', label: 'Requirements', content: <RequirementsTab /> },
        { value: 'sso', label: 'Single sign-on', content: <SsoTab />, shown: can('sso:manage') },
        { value: 'audit', label: 'Audit events', content: <AuditTab />, shown: can('audit:read') },
        { value: 'webhooks', label: 'Webhooks', content: <WebhooksTab />, shown: can('webhooks:manage') },
        {
          value: 'learning-records',
          label: 'Learning records',
          content: <LearningRecordsTab />,
          shown: can('learn:xapi:statements:read'),
        },
      ]}
    />
  )
}
