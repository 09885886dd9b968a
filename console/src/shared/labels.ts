/** Words for the service's codes where plain capitalisation would not do. */
const WORDS: Record<string, string> = {
  us_visa: 'US visa',
  stcw_basic_safety: 'STCW basic safety',
  gmdss_endorsement: 'GMDSS endorsement',
  identity_document: 'Identity document',
  office_admin: 'Office admin',
  office_employee: 'Office employee',
  document_missing: 'A required document is missing',
  document_rejected: 'A required document was rejected',
  document_expired: 'A required document has expired',
  document_expires_during_assignment: 'A required document expires during the assignment',
  document_expiring_soon: 'A required document expires soon',
  document_unverified: 'A required document is not verified yet',
  sea_service_insufficient: 'Not enough sea service in the role',
  ro_ro: 'Ro-ro',
  course_overdue: 'A course is overdue',
  course_not_passed: 'A required course is not passed',
  no_requirements: 'No requirements set for the role',
  overlapping_assignment: 'Booked on overlapping assignments',
}

/** `seaman_book` → "Seaman book", unless WORDS knows better. */
export function labelOf(code: string): string {
  const word = WORDS[code]
  if (word) return word
  const text = code.replaceAll('_', ' ')
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** A record in words: its type and number ("Passport P1234567"), an experience row by its company. */
export function recordLabel(type: string, kind: string | null, name: string | null): string {
  const what = labelOf(kind ?? type)
  if (!name) return what
  return type === 'experience' ? `${what}: ${name}` : `${what} ${name}`
}
