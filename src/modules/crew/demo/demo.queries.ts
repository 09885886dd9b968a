import { v7 as uuidv7 } from 'uuid'
import type { Db } from '../../../db/database.js'
import type { CertificateType, DocumentType, VerificationStatus } from '../../../db/schema.js'
import { addDays, todayUtc } from '../../../lib/dates.js'

// The demo organization's crewing data, so every console screen shows something real: crew records
// in each review state, requirements, assignments (one not ready), courses and a curriculum. One
// statement per table, whatever the number of rows.

type Holder = 'carlos' | 'maria' | 'jonas' | 'aiko'

const CREW: { key: Exclude<Holder, 'carlos'>; first: string; last: string }[] = [
  { key: 'maria', first: 'Maria', last: 'Santos' },
  { key: 'jonas', first: 'Jonas', last: 'Berg' },
  { key: 'aiko', first: 'Aiko', last: 'Tanaka' },
]

interface DemoRecord {
  holder: Holder
  type: DocumentType | CertificateType
  number: string
  /** Years from today the record expires. */
  years: number
  status: VerificationStatus
}

const DOCUMENTS: DemoRecord[] = [
  { holder: 'carlos', type: 'passport', number: 'P4821907', years: 6, status: 'verified' },
  { holder: 'maria', type: 'passport', number: 'P7730125', years: 4, status: 'verified' },
  { holder: 'maria', type: 'seaman_book', number: 'SB-55102', years: 3, status: 'pending' },
  { holder: 'jonas', type: 'passport', number: 'P1093348', years: 5, status: 'rejected' },
  { holder: 'jonas', type: 'seaman_book', number: 'SB-80417', years: 2, status: 'not_submitted' },
  { holder: 'aiko', type: 'passport', number: 'TK2290173', years: 7, status: 'pending' },
  { holder: 'aiko', type: 'national_id', number: 'JP-448120', years: 8, status: 'not_submitted' },
]

const CERTIFICATES: DemoRecord[] = [
  { holder: 'carlos', type: 'medical', number: 'MED-20931', years: 2, status: 'verified' },
  { holder: 'carlos', type: 'stcw_basic_safety', number: 'BST-77120', years: 4, status: 'verified' },
  { holder: 'jonas', type: 'stcw_basic_safety', number: 'BST-10446', years: 3, status: 'pending' },
  { holder: 'aiko', type: 'medical', number: 'MED-61873', years: 1, status: 'verified' },
]

const REJECTION = 'The photo page is cut off: please upload the whole page.'

const COURSES = [
  {
    key: 'fire',
    title: 'Fire Prevention and Fire Fighting',
    description: 'STCW basic safety: fire theory, extinguishers, breathing apparatus.',
  },
  { key: 'survival', title: 'Personal Survival Techniques', description: 'Abandoning ship, life-saving appliances, survival at sea.' },
  { key: 'security', title: 'Security Awareness', description: 'ISPS code basics for every seafarer on board.' },
] as const

export interface DemoCrewing {
  orgId: string
  adminId: string
  carlosId: string
  shipIds: string[]
}

/** The crewing data of the demo organization (see the comment at the top). */
export async function insertDemoCrewing(db: Db, demo: DemoCrewing): Promise<void> {
  const { orgId, adminId } = demo
  const today = todayUtc()
  const ids: Record<Holder, string> = { carlos: demo.carlosId, maria: uuidv7(), jonas: uuidv7(), aiko: uuidv7() }
  // Active, without a password: an admin gives them a way in with a reset link.
  await db
    .insertInto('users')
    .values(
      CREW.map((person) => ({
        id: ids[person.key],
        organization_id: orgId,
        email: `${person.first.toLowerCase()}.${person.last.toLowerCase()}-${orgId.slice(-6)}@demo.seaworthy.test`,
        first_name: person.first,
        last_name: person.last,
        role: 'crew' as const,
        state: 'active' as const,
        password_hash: null,
      })),
    )
    .execute()

  const rows = (records: DemoRecord[]) =>
    records.map((record) => ({
      id: uuidv7(),
      organization_id: orgId,
      user_id: ids[record.holder],
      issue_date: addDays(today, -365),
      expiry_date: addDays(today, Math.round(record.years * 365.25)),
      upload_id: null,
      uploaded_by_user_id: adminId,
      notes: null,
    }))
  const documents = rows(DOCUMENTS)
  const certificates = rows(CERTIFICATES)
  await db
    .insertInto('identity_documents')
    .values(documents.map((row, i) => ({ ...row, document_type: DOCUMENTS[i].type as DocumentType, document_number: DOCUMENTS[i].number })))
    .execute()
  await db
    .insertInto('certificates')
    .values(
      certificates.map((row, i) => ({
        ...row,
        certificate_type: CERTIFICATES[i].type as CertificateType,
        certificate_number: CERTIFICATES[i].number,
        issuing_authority: 'Maritime Authority',
      })),
    )
    .execute()
  const reviews = [
    ...documents.map((row, i) => ({ row, record: DOCUMENTS[i], target: 'identity_document' as const })),
    ...certificates.map((row, i) => ({ row, record: CERTIFICATES[i], target: 'certificate' as const })),
  ]
  await db
    .insertInto('verifications')
    .values(
      reviews.map(({ row, record, target }) => {
        const reviewed = record.status === 'verified' || record.status === 'rejected'
        return {
          target_type: target,
          target_id: row.id,
          organization_id: orgId,
          user_id: row.user_id,
          status: record.status,
          rejection_reason: record.status === 'rejected' ? REJECTION : null,
          reviewed_at: reviewed ? new Date() : null,
          reviewer_user_id: reviewed ? adminId : null,
          submitted_at: record.status === 'not_submitted' ? null : new Date(),
        }
      }),
    )
    .execute()

  // Able seamen need a passport and a medical: Maria has no medical, so her assignment is not ready.
  // "*" asks every other role (Aiko's Cook) for a passport and a medical, so no role is ready by omission.
  await db
    .insertInto('requirements')
    .values([
      { organization_id: orgId, position: 0, role: 'Able Seaman', document_types: ['passport'], certificate_types: ['medical'] },
      { organization_id: orgId, position: 1, role: '*', document_types: ['passport'], certificate_types: ['medical'] },
    ])
    .execute()
  const assignments = [
    { holder: 'carlos', ship: 0, role: 'Able Seaman', start: -20, end: 120 },
    { holder: 'maria', ship: 1, role: 'Able Seaman', start: 14, end: 194 },
    { holder: 'aiko', ship: 2, role: 'Cook', start: 30, end: 210 },
  ] as const
  await db
    .insertInto('assignments')
    .values(
      assignments.map((assignment) => ({
        id: uuidv7(),
        organization_id: orgId,
        user_id: ids[assignment.holder],
        ship_id: demo.shipIds[assignment.ship],
        role: assignment.role,
        start_date: addDays(today, assignment.start),
        // Courses due a week into the contract: on or after the start, as the form requires (DECISIONS §4).
        due_date: addDays(today, assignment.start + 7),
        end_date: addDays(today, assignment.end),
      })),
    )
    .execute()

  const courseIds = COURSES.map(() => uuidv7())
  await db
    .insertInto('courses')
    .values(
      COURSES.map((course, i) => ({
        id: courseIds[i],
        organization_id: orgId,
        title: course.title,
        description: course.description,
        s3_path: `demo/${course.key}`,
        launch_file: 'index.html',
      })),
    )
    .execute()
  const curriculumId = uuidv7()
  await db
    .insertInto('curriculums')
    .values({
      id: curriculumId,
      organization_id: orgId,
      title: 'Deck rating onboarding',
      description: 'The courses every new deck rating takes.',
    })
    .execute()
  await db
    .insertInto('curriculum_courses')
    .values(courseIds.slice(0, 2).map((courseId) => ({ curriculum_id: curriculumId, course_id: courseId, organization_id: orgId })))
    .execute()
}
