import type { Code } from './readiness.schemas.js'

// The `message` of each issue: one sentence a crewing office can act on.

const TYPE_NAMES: Record<string, string> = {
  passport: 'Passport',
  us_visa: 'US visa',
  seaman_book: "Seaman's book",
  national_id: 'National ID',
  stcw_basic_safety: 'STCW basic safety certificate',
  deck_certificate: 'Deck certificate',
  gmdss_endorsement: 'GMDSS endorsement',
  oil_tanker_endorsement: 'Oil tanker endorsement',
  medical: 'Medical certificate',
  flag_certificate: 'Flag certificate',
  other: 'Other certificate',
}

export interface IssueFacts {
  code: Code
  requirement: string | null
  /** The document's expiry date, the course's due date, the date sea service is counted to, or the other assignment's start. */
  date: string | null
  /** The date the document has to reach (document_expires_during_assignment), or the other assignment's end. */
  bound: string | null
  courseTitle: string | null
  /** How many days of sea service in the role are missing (for sea_service_insufficient). */
  daysShort: number | null
}

/** The other assignment's dates in words: "from 2027-01-01 to 2027-03-31", "from 2027-01-01 with no end date". */
function spanOf(start: string | null, end: string | null): string {
  if (start) return end ? `from ${start} to ${end}` : `from ${start} with no end date`
  return end ? `until ${end} (no start date)` : 'with no dates set'
}

export function messageOf(issue: IssueFacts): string {
  const name = TYPE_NAMES[issue.requirement ?? ''] ?? issue.requirement
  const course = `Course "${issue.courseTitle ?? issue.requirement}"`
  switch (issue.code) {
    case 'document_missing':
      return `${name} is required for this role and none is on record.`
    case 'document_rejected':
      return `${name} is required for this role and every one on record was rejected.`
    case 'document_expired':
      return `${name} expired on ${issue.date}.`
    case 'document_expires_during_assignment':
      return `${name} expires on ${issue.date}: it must be valid until ${issue.bound}.`
    case 'document_expiring_soon':
      return `${name} expires on ${issue.date}, soon after the assignment ends.`
    case 'document_unverified':
      return `${name} is waiting for verification by the office.`
    case 'sea_service_insufficient':
      return `${issue.daysShort} more days of verified sea service in this role are needed by ${issue.date}.`
    case 'course_overdue':
      return `${course} was due on ${issue.date} and is not passed.`
    case 'course_not_passed':
      return issue.date ? `${course} is not passed yet (due on ${issue.date}).` : `${course} is not passed yet.`
    case 'no_requirements':
      return `No requirements are set for the role ${issue.requirement}.`
    case 'overlapping_assignment':
      return `This person is also assigned ${spanOf(issue.date, issue.bound)}, overlapping this assignment.`
  }
}
