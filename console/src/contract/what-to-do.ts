import type { components } from '../../../client/index.js'

type Issue = components['schemas']['ReadinessIssue']

/** Where a link of `whatToDo` goes, in words. */
export const LINK_WORDS: Record<string, string> = {
  '/me/documents': 'Go to My documents',
  '/me/assignments': 'Go to My assignments',
  '/me/training': 'Open the course',
}

/**
 * What the crew member can do about one readiness issue, and where: a sentence and a link in the console. A course
 * without a package (`packaged` false) is not opened here: the office records its result.
 */
export function whatToDo(issue: Issue, through: string, packaged = true): { text: string; to: string | null } {
  const course = issue.targetType === 'registration' && issue.targetId ? `/me/training#registration-${issue.targetId}` : '/me/training'
  switch (issue.code) {
    case 'document_missing':
      return { text: 'Upload it in My documents.', to: '/me/documents' }
    case 'document_rejected':
      return { text: 'Read why it was rejected, correct it and send it again.', to: '/me/documents' }
    case 'document_expired':
    case 'document_expires_during_assignment':
      return { text: `Renew it and upload the new one: it must be valid through ${through}.`, to: '/me/documents' }
    case 'document_expiring_soon':
      return { text: 'Renew it soon and upload the new one.', to: '/me/documents' }
    case 'document_unverified':
      return { text: 'Nothing to do unless it was sent without a scan: the office reviews it.', to: '/me/documents' }
    case 'course_overdue':
    case 'course_not_passed':
      if (!packaged)
        return { text: 'This course is taken away from the console (in class or on board): the office records your result.', to: null }
      return { text: 'Finish this course in My training.', to: course }
    case 'sea_service_insufficient':
      return { text: 'Ask the office: your sea service in this role is counted from your experience records.', to: null }
    case 'no_requirements':
      return {
        text: 'Nothing for you to do: the office has not yet said what this role needs, so check with them before you sail.',
        to: null,
      }
    case 'overlapping_assignment':
      return { text: 'Ask the office which contract is right: you are booked on two at once.', to: '/me/assignments' }
  }
}
