import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely'
import { format } from 'sql-formatter'
import { describe, expect, it } from 'vitest'
import type { Db } from '../src/db/database.js'
import type { DB } from '../src/db/schema.js'
import { courseDifficultyQuery, questionDifficultyQuery } from '../src/modules/learning/analytics/analytics.queries.js'
import { updateAssignment } from '../src/modules/crew/assignments/assignment-writes.queries.js'
import { bulkInsertAssignments, bulkUpdateAssignments } from '../src/modules/crew/assignments/bulk.queries.js'
import { bulkAddCourses, bulkRemoveCourses } from '../src/modules/crew/assignments/bulk-courses.queries.js'
import { CERTIFICATES } from '../src/modules/crew/record-kinds/certificates.js'
import { IDENTITY_DOCUMENTS } from '../src/modules/crew/record-kinds/identity-documents.js'
import { expiringOfUser } from '../src/modules/crew/reviewed-records/reviewed-reads.queries.js'
import { insertTogether } from '../src/modules/crew/reviewed-records/expiring-batches.queries.js'
import { insertExpiringAlone } from '../src/modules/crew/reviewed-records/reviewed-records.queries.js'

// The statements with the most logic in SQL, as Kysely compiles them for PostgreSQL, kept in
// test/__snapshots__/sql/ so that a change to them is reviewed as SQL. After an intended change:
// `npx vitest run test/sql-snapshots.test.ts -u`, then read the diff of the .sql files.

const ORG = '0190a000-0000-7000-8000-000000000001'
const USER = '0190a000-0000-7000-8000-000000000002'
const SHIP = '0190a000-0000-7000-8000-000000000003'
const IDS = ['0190a000-0000-7000-8000-000000000004', '0190a000-0000-7000-8000-000000000005']
/** Who writes: the events the statements append carry it. */
const source = { orgId: ORG, actor: { userId: USER, role: 'admin' as const }, requestId: 'req-1' }

/** The SQL of the statements `run` sends, compiled for PostgreSQL by a Kysely that executes nothing. */
async function compiledSql(run: (db: Db) => Promise<unknown>): Promise<string[]> {
  const statements: string[] = []
  const db = new Kysely<DB>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (kysely) => new PostgresIntrospector(kysely),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    log: (event) => {
      statements.push(event.query.sql)
    },
  })
  // No rows come back, so a function that requires one throws after its statement was sent.
  await run(db).catch(() => {})
  return statements
}

/** One readable .sql file per statement: what it is, then the SQL formatted for review. */
async function matchesSnapshot(name: string, what: string, statements: string[]) {
  expect(statements).toHaveLength(1)
  const text = `-- ${what}\n${format(statements[0], { language: 'postgresql', keywordCase: 'lower', tabWidth: 2 })}\n`
  await expect(text).toMatchFileSnapshot(`__snapshots__/sql/${name}.sql`)
}

describe('SQL snapshots', () => {
  it('bulk update: one statement locking, checking and updating the listed assignments', async () => {
    const changes = { role: 'Bosun', due_date: null, end_date: '2026-09-01' }
    const statements = await compiledSql((db) => bulkUpdateAssignments(db, source, IDS, changes))
    await matchesSnapshot('bulk-update', 'bulkUpdateAssignments: role and endDate set, dueDate cleared, startDate kept', statements)
  })

  it('bulk create: one statement inserting the users not yet on the ship', async () => {
    const values = { ship_id: SHIP, role: 'Bosun', start_date: '2026-03-01', due_date: null, end_date: null }
    const statements = await compiledSql((db) => bulkInsertAssignments(db, source, [USER, ...IDS], values))
    await matchesSnapshot('bulk-create', 'bulkInsertAssignments: three users on one ship', statements)
  })

  it('bulk courses: one statement adding pairs, registrations and enrollments', async () => {
    const statements = await compiledSql((db) => bulkAddCourses(db, source, IDS, [SHIP]))
    await matchesSnapshot('bulk-add-courses', 'bulkAddCourses: two assignments, one course', statements)
  })

  it('bulk remove-courses: one statement removing pairs, unattempted registrations and enrollments', async () => {
    const statements = await compiledSql((db) => bulkRemoveCourses(db, source, IDS, [SHIP]))
    await matchesSnapshot('bulk-remove-courses', 'bulkRemoveCourses: two assignments, one course', statements)
  })

  it('course difficulty: the ORDER BY of course_stats_difficulty_idx', async () => {
    const statements = await compiledSql((db) => courseDifficultyQuery(db, ORG, 20).execute())
    await matchesSnapshot('course-difficulty', 'courseDifficultyQuery: hardest 20 courses', statements)
  })

  it("question difficulty: each registration's latest answer, then the figures per question", async () => {
    const statements = await compiledSql((db) => questionDifficultyQuery(db, ORG, IDS[0], 20).execute())
    await matchesSnapshot('question-difficulty', "questionDifficultyQuery: a course's hardest 20 questions", statements)
  })

  it.each([
    ['identity-documents', IDENTITY_DOCUMENTS],
    ['certificates', CERTIFICATES],
  ] as const)('expiry status of %s: computed by the database, in the answer and the filter', async (name, kind) => {
    const statements = await compiledSql((db) => expiringOfUser(db, kind, ORG, 90, USER, { expiry_status: 'expiring_soon' }).execute())
    await matchesSnapshot(`${name}-expiring`, `expiringOfUser: a user's ${name} with expiry_status=expiring_soon`, statements)
  })

  const review = {
    fields: { status: 'pending' as const, submitted_at: new Date(0), reviewed_at: null, reviewer_user_id: null, rejection_reason: null },
    event: { action: 'create', actorUserId: USER, reason: null },
  }
  const columns = { document_type: 'passport' as const, document_number: 'P1', uploaded_by_user_id: USER, upload_id: IDS[1] }

  it('identity document create: one statement checking the user and the upload, inserting the document, its verification and event', async () => {
    const statements = await compiledSql((db) =>
      insertExpiringAlone(db, IDENTITY_DOCUMENTS, ORG, 90, {
        id: IDS[0],
        userId: USER,
        columns,
        upload: { id: IDS[1], ownerId: USER },
        review,
        source,
      }),
    )
    await matchesSnapshot(
      'identity-document-create',
      'insertExpiringAlone (identity documents): with an upload a crew member references',
      statements,
    )
  })

  it('identity document creates together: one statement for several, each row its own owner, upload, review and event', async () => {
    const record = (id: string) => ({ id, userId: USER, columns, upload: { id: IDS[1], ownerId: USER }, review, source })
    const statements = await compiledSql((db) => insertTogether(db, IDENTITY_DOCUMENTS, ORG, 90, [record(IDS[0]), record(IDS[1])]))
    await matchesSnapshot(
      'identity-documents-create-together',
      'insertTogether (identity documents): creates with uploads their crew members reference',
      statements,
    )
  })

  it('PATCH assignment without dates: one statement updating and reading back', async () => {
    const statements = await compiledSql((db) => updateAssignment(db, source, IDS[0], { role: 'Bosun' }))
    await matchesSnapshot('assignment-update', 'updateAssignment: role only', statements)
  })
})
