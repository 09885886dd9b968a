import type { components } from '../../../../client/index.js'

type EventType = components['schemas']['Event']['type']

// Every type the service lists (DECISIONS §11): a Record so that a type added to the API and missing here fails `npm run check`.
const TYPES: Record<EventType, true> = {
  'user.created': true,
  'user.updated': true,
  'user.suspended': true,
  'user.restored': true,
  'user.invited': true,
  'user.password_reset_issued': true,
  'ship.created': true,
  'ship.updated': true,
  'ship.deleted': true,
  'identity_document.created': true,
  'identity_document.updated': true,
  'identity_document.deleted': true,
  'certificate.created': true,
  'certificate.updated': true,
  'certificate.deleted': true,
  'experience.created': true,
  'experience.updated': true,
  'experience.deleted': true,
  'next_of_kin.created': true,
  'next_of_kin.updated': true,
  'next_of_kin.deleted': true,
  'verification.submitted': true,
  'verification.verified': true,
  'verification.rejected': true,
  'verification.reopened': true,
  'assignment.created': true,
  'assignment.updated': true,
  'assignment.courses_assigned': true,
  'assignment.courses_removed': true,
  'course.created': true,
  'course.updated': true,
  'course.deleted': true,
  'course_import.completed': true,
  'course_import.failed': true,
  'curriculum.created': true,
  'curriculum.updated': true,
  'curriculum.deleted': true,
  'registration.passed': true,
  'registration.failed': true,
  'registration.waived': true,
  'learning_session.abandoned': true,
  'upload.ready': true,
  'upload.rejected': true,
  'document.expiring': true,
  'document.expired': true,
  'auth.login_failed': true,
  'auth.throttled': true,
  'auth.password_set': true,
  'auth.refresh_reused': true,
  'organization.updated': true,
  'requirements.updated': true,
  'webhook.created': true,
  'webhook.updated': true,
  'webhook.deleted': true,
  'webhook.secret_rotated': true,
  'webhook.test': true,
  'xapi_credential.created': true,
  'xapi_credential.deleted': true,
}

export interface PatternGroup {
  group: string
  items: { value: string; label: string }[]
}

/** What a subscription may ask for: `*`, each `prefix.*`, and each type, grouped by prefix for the multi-select. */
export function eventPatternGroups(): PatternGroup[] {
  const byPrefix = new Map<string, string[]>()
  for (const type of Object.keys(TYPES)) {
    const prefix = type.split('.')[0] ?? type
    byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), type])
  }
  return [
    { group: 'Everything', items: [{ value: '*', label: '* (every event)' }] },
    ...[...byPrefix].map(([prefix, types]) => ({
      group: prefix,
      items: [{ value: `${prefix}.*`, label: `${prefix}.* (all of them)` }, ...types.map((t) => ({ value: t, label: t }))],
    })),
  ]
}
