import Type, { type Static } from 'typebox'
import { DateTime, IdParams, ListQuery, Nullable, Page, Uuid } from '../../../lib/schemas.js'

export const CurriculumCourse = Type.Object({ courseId: Uuid, title: Type.String() })
export type CurriculumCourse = Static<typeof CurriculumCourse>

export const Curriculum = Type.Object(
  {
    id: Uuid,
    title: Type.String(),
    description: Type.String(),
    courses: Type.Array(CurriculumCourse, { description: 'In the order they were added' }),
    createdAt: DateTime,
  },
  {
    title: 'Curriculum',
    examples: [
      {
        id: '0190a000-0000-7000-8000-000000000a04',
        title: 'Engine room induction',
        description: 'Courses for new engine crew',
        courses: [{ courseId: '0190a000-0000-7000-8000-000000000a03', title: 'Fire safety basics' }],
        createdAt: '2026-06-15T08:30:00.000Z',
      },
    ],
  },
)
export type Curriculum = Static<typeof Curriculum>

const Title = Type.String({ minLength: 1, maxLength: 300 })
// null reads as "no description", stored as "" like an omitted one.
const Description = Nullable(Type.String({ maxLength: 5000 }))

export const CurriculumCreate = Type.Object(
  { title: Title, description: Type.Optional(Description) },
  { title: 'CurriculumCreate', examples: [{ title: 'Engine room induction', description: 'Courses for new engine crew' }] },
)
export type CurriculumCreate = Static<typeof CurriculumCreate>

export const CurriculumUpdate = Type.Partial(CurriculumCreate, {
  title: 'CurriculumUpdate',
  examples: [{ description: 'Courses for every new engine crew member' }],
})
export type CurriculumUpdate = Static<typeof CurriculumUpdate>

export const CurriculumPage = Page(Curriculum)
export const CurriculumListQuery = ListQuery
export const CurriculumParams = IdParams('curriculum_id')
export const CurriculumCourseParams = Type.Object({ curriculum_id: Uuid, course_id: Uuid })
export const AddCourseQuery = Type.Object({ course_id: Uuid })
