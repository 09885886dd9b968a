import Type, { type Static } from 'typebox'
import { DateTime, IdParams, ListQuery, Nullable, Page, Uuid } from '../../../lib/schemas.js'
import { registerFormat } from '../../../lib/validation.js'
import { CertificateType } from '../../crew/record-kinds/certificates.js'

/**
 * The launch file is opened inside the course package: a relative path that cannot climb out of it
 * (no leading slash, no drive letter or URL scheme, no `..` segment; `\` counts as a separator).
 */
export const isPackageRelative = (path: string) =>
  !/^[/\\]/.test(path) && !/^[a-z][a-z0-9+.-]*:/i.test(path) && !path.split(/[/\\]/).includes('..')

registerFormat(
  'package-relative-path',
  isPackageRelative,
  "Value must be a relative path inside the course package (no leading '/', no '..')",
)

/** The certificate a pass issues (DECISIONS §14): camelCase inside, as §14 writes it. */
export const CertificateTemplate = Type.Object(
  { certificateType: CertificateType, validityMonths: Type.Integer({ minimum: 1, maximum: 120 }) },
  { title: 'CertificateTemplate', examples: [{ certificateType: 'stcw_basic_safety', validityMonths: 60 }] },
)
export type CertificateTemplate = Static<typeof CertificateTemplate>

// The course creation request and response, and one course, are snake_case on the wire (DECISIONS §1).
export const Course = Type.Object(
  {
    id: Uuid,
    organization_id: Uuid,
    s3_path: Type.String(),
    launch_file: Type.String(),
    title: Type.String(),
    created_at: DateTime,
    updated_at: DateTime,
    description: Nullable(Type.String()),
    certificate: Nullable(CertificateTemplate),
  },
  {
    title: 'Course',
    examples: [
      {
        id: '0190a000-0000-7000-8000-000000000a03',
        organization_id: '0190a000-0000-7000-8000-000000000a00',
        s3_path: 'courses/fire-safety',
        launch_file: 'index.html',
        title: 'Fire safety basics',
        created_at: '2026-06-15T08:30:00.000Z',
        updated_at: '2026-06-15T08:30:00.000Z',
        description: 'Shipboard fire prevention and response',
        certificate: { certificateType: 'stcw_basic_safety', validityMonths: 60 },
      },
    ],
  },
)
export type Course = Static<typeof Course>

const CourseFields = {
  organization_id: Uuid,
  s3_path: Type.String({ minLength: 1, maxLength: 1024 }),
  launch_file: Type.String({ minLength: 1, maxLength: 512, format: 'package-relative-path' }),
  title: Type.String({ minLength: 1, maxLength: 300 }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
  certificate: Type.Optional(Nullable(CertificateTemplate)),
}

export const CourseCreate = Type.Object(CourseFields, {
  title: 'CourseCreate',
  examples: [
    {
      organization_id: '0190a000-0000-7000-8000-000000000a00',
      s3_path: 'courses/fire-safety',
      launch_file: 'index.html',
      title: 'Fire safety basics',
      description: 'Shipboard fire prevention and response',
    },
  ],
})
export type CourseCreate = Static<typeof CourseCreate>

/** Every field optional; `organization_id`, when sent, must still be the caller's (a course never moves). */
export const CourseUpdate = Type.Partial(Type.Object(CourseFields), {
  title: 'CourseUpdate',
  examples: [{ title: 'Fire safety basics (2026)' }],
})
export type CourseUpdate = Static<typeof CourseUpdate>

/** The fields a request sets, and their columns (src/lib/columns.ts): snake_case on both sides here. */
export const COURSE_COLUMNS = { s3_path: 's3_path', launch_file: 'launch_file', title: 'title', description: 'description' } as const

/** The list item (CourseDetailDTO) is camelCase. */
export const CourseDetail = Type.Object(
  {
    id: Uuid,
    title: Type.String(),
    description: Nullable(Type.String()),
    createdAt: DateTime,
    enrollmentCount: Type.Integer({ default: 0 }),
  },
  {
    title: 'CourseDetail',
    examples: [
      {
        id: '0190a000-0000-7000-8000-000000000a03',
        title: 'Fire safety basics',
        description: 'Shipboard fire prevention and response',
        createdAt: '2026-06-15T08:30:00.000Z',
        enrollmentCount: 12,
      },
    ],
  },
)
export type CourseDetail = Static<typeof CourseDetail>

export const CoursePage = Page(CourseDetail)
export const CourseListQuery = ListQuery
export const CourseParams = IdParams('course_id')
