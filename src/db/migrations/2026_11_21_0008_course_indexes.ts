import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code.
const statements = [
  // Counting an organization's courses (include_count) reads this small index alone, not the table.
  `create index courses_org_idx on courses (organization_id)`,
  // Removing courses from assignments, and deleting a course (the foreign key cascades), find
  // the pairs by course.
  `create index assignment_courses_course_idx on assignment_courses (course_id)`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists assignment_courses_course_idx`.execute(db)
  await sql`drop index if exists courses_org_idx`.execute(db)
}
