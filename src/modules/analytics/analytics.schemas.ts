import Type, { type Static } from 'typebox'

export const CourseDifficulty = Type.Object(
  {
    courseId: Type.String({ format: 'uuid' }),
    course: Type.String({ description: 'The course title' }),
    avgAttempts: Type.Number({ description: 'Mean attempt count over registrations with at least one attempt (0 if none)' }),
    passRate: Type.Number({ minimum: 0, maximum: 1, description: 'Share of those registrations that passed, 0 to 1 (0 if none)' }),
    enrollments: Type.Integer({ description: 'Registrations of the course' }),
  },
  {
    title: 'CourseDifficulty',
    examples: [
      { courseId: '0190a000-0000-7000-8000-000000000a03', course: 'Fire safety basics', avgAttempts: 1.8, passRate: 0.75, enrollments: 12 },
    ],
  },
)
export type CourseDifficulty = Static<typeof CourseDifficulty>

export const CourseDifficultyQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
})

export const CourseDifficultyList = Type.Object(
  { data: Type.Array(CourseDifficulty) },
  {
    title: 'CourseDifficultyList',
    examples: [
      {
        data: [
          {
            courseId: '0190a000-0000-7000-8000-000000000a03',
            course: 'Fire safety basics',
            avgAttempts: 1.8,
            passRate: 0.75,
            enrollments: 12,
          },
        ],
      },
    ],
  },
)
