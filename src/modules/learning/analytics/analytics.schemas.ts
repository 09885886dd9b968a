import Type, { type Static } from 'typebox'
import { IdParams } from '../../../lib/schemas.js'

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

export const QuestionDifficulty = Type.Object(
  {
    activityId: Type.String({ description: "The interaction's activity id (IRI)" }),
    description: Type.Union([Type.String(), Type.Null()], {
      description:
        "The LRS's definition of the activity: its description in en-US, else in the alphabetically first language; null without one",
    }),
    attempts: Type.Integer({
      description: 'Registrations of the course that answered the question, each counted once by its latest answer',
    }),
    correctRate: Type.Number({
      minimum: 0,
      maximum: 1,
      description: 'Share of those latest answers that were right (`result.success`), 0 to 1',
    }),
    discrimination: Type.Union([Type.Number({ minimum: -1, maximum: 1 }), Type.Null()], {
      description:
        "Pearson (phi) correlation, -1 to 1, between answering right and the registration's status being `passed` (failed and unfinished registrations are not passed); null when every answer or every registration was alike",
    }),
  },
  {
    title: 'QuestionDifficulty',
    examples: [
      {
        activityId: 'https://courses.example.com/fire-safety/q3',
        description: 'Which extinguisher is used on an electrical fire?',
        attempts: 40,
        correctRate: 0.45,
        discrimination: 0.62,
      },
    ],
  },
)
export type QuestionDifficulty = Static<typeof QuestionDifficulty>

export const QuestionDifficultyParams = IdParams('course_id')

export const QuestionDifficultyList = Type.Object(
  { data: Type.Array(QuestionDifficulty) },
  {
    title: 'QuestionDifficultyList',
    examples: [
      {
        data: [
          {
            activityId: 'https://courses.example.com/fire-safety/q3',
            description: 'Which extinguisher is used on an electrical fire?',
            attempts: 40,
            correctRate: 0.45,
            discrimination: 0.62,
          },
        ],
      },
    ],
  },
)
