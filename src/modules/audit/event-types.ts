/** Every event type of DECISIONS §11: the audit filter, webhook subscriptions and the OpenAPI description read this list. */
export const EVENT_TYPES = [
  'user.created',
  'user.updated',
  'user.suspended',
  'user.restored',
  'ship.created',
  'ship.updated',
  'ship.deleted',
  'identity_document.created',
  'identity_document.updated',
  'identity_document.deleted',
  'certificate.created',
  'certificate.updated',
  'certificate.deleted',
  'experience.created',
  'experience.updated',
  'experience.deleted',
  'next_of_kin.created',
  'next_of_kin.updated',
  'next_of_kin.deleted',
  'verification.submitted',
  'verification.verified',
  'verification.rejected',
  'verification.reopened',
  'assignment.created',
  'assignment.updated',
  'assignment.courses_assigned',
  'assignment.courses_removed',
  'course.created',
  'course.updated',
  'course.deleted',
  'curriculum.created',
  'curriculum.updated',
  'curriculum.deleted',
  'registration.passed',
  'registration.failed',
  'upload.ready',
  'upload.rejected',
  'document.expiring',
  'document.expired',
  'auth.login_failed',
  'auth.throttled',
  'organization.updated',
  'requirements.updated',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
  'webhook.test',
] as const
export type EventType = (typeof EVENT_TYPES)[number]


/** The types a pattern names: one type, or `prefix.*` for every type of that prefix; empty when it names none. */
export function typesMatching(pattern: string): EventType[] {
  if (pattern.endsWith('.*')) return EVENT_TYPES.filter((type) => type.startsWith(pattern.slice(0, -1)))
  return EVENT_TYPES.filter((type) => type === pattern)
}
