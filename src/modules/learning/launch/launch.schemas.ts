import { type Static, Type } from 'typebox'
import { DateTime, IdParams, ListQuery, Nullable, Page, Uuid } from '../../../lib/schemas.js'

export const LaunchModeSchema = Type.Union([Type.Literal('Normal'), Type.Literal('Browse'), Type.Literal('Review')])

/** Which AU or SCO of a course, by its index: within the column's range, so a huge index is a 400, not a database error. */
export const AuIndex = Type.Integer({
  minimum: 0,
  maximum: 2_147_483_647,
  default: 0,
  description: 'Which AU or SCO, by its index in the course structure.',
})

export const LaunchCreate = Type.Object(
  {
    auIndex: AuIndex,
    launchMode: Type.Union(LaunchModeSchema.anyOf, {
      default: 'Normal',
      description: 'Browse and Review record nothing towards the result (cmi5 §10.2.2).',
    }),
    returnUrl: Type.Optional(
      Type.String({ format: 'uri', maxLength: 2000, description: 'Where the course sends the learner when it ends (cmi5 returnURL).' }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ auIndex: 0, launchMode: 'Normal', returnUrl: 'https://seaworthy.example.com/console/training' }],
  },
)
export type LaunchCreate = Static<typeof LaunchCreate>

export const Launch = Type.Object(
  {
    sessionId: Uuid,
    url: Type.String({ description: 'Open it as `launchMethod` says: cmi5 AU URL with its launch parameters, or the SCORM player page.' }),
    standard: Type.Union([Type.Literal('cmi5'), Type.Literal('scorm12'), Type.Literal('scorm2004')]),
    launchMethod: Type.Union([Type.Literal('AnyWindow'), Type.Literal('OwnWindow')]),
    expiresAt: DateTime,
  },
  {
    title: 'Launch',
    examples: [
      {
        sessionId: '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b',
        url: 'https://content.seaworthy.example.com/content/eyJ…/index.html?endpoint=…&fetch=…&actor=…&registration=…&activityId=…',
        standard: 'cmi5',
        launchMethod: 'OwnWindow',
        expiresAt: '2026-11-27T13:00:00.000Z',
      },
    ],
  },
)
export type Launch = Static<typeof Launch>

export const LearningSession = Type.Object(
  {
    id: Uuid,
    auIndex: Type.Integer(),
    launchMode: LaunchModeSchema,
    startedAt: DateTime,
    endedAt: Nullable(DateTime),
    endedBy: Nullable(Type.Enum(['terminated', 'abandoned'])),
    durationSeconds: Nullable(Type.Integer()),
    completed: Type.Boolean({ description: 'The AU or SCO ended completed (SCORM: read when the session ended, DECISIONS §13.6).' }),
    outcome: Nullable(Type.Enum(['passed', 'failed'])),
    scoreScaled: Nullable(Type.Number()),
  },
  {
    title: 'LearningSession',
    examples: [
      {
        id: '0192f7a4-5b7e-7c3a-9d2e-1a2b3c4d5e6f',
        auIndex: 0,
        launchMode: 'Normal',
        startedAt: '2026-11-27T09:00:00.000Z',
        endedAt: '2026-11-27T09:20:00.000Z',
        endedBy: 'terminated',
        durationSeconds: 1200,
        completed: true,
        outcome: 'passed',
        scoreScaled: 0.9,
      },
    ],
  },
)
export type LearningSession = Static<typeof LearningSession>
export const LearningSessionPage = Page(LearningSession)
export const SessionListQuery = Type.Omit(ListQuery, ['search'])
export type SessionListQuery = Static<typeof SessionListQuery>

export const Waive = Type.Object(
  {
    auIndex: Type.Integer({ minimum: 0 }),
    reason: Type.Union(
      [
        Type.Literal('Tested Out'),
        Type.Literal('Equivalent AU'),
        Type.Literal('Equivalent Outside Activity'),
        Type.Literal('Administrative'),
      ],
      { description: "cmi5's waive reasons (§9.5.5.2)." },
    ),
  },
  { additionalProperties: false, examples: [{ auIndex: 0, reason: 'Tested Out' }] },
)
export type Waive = Static<typeof Waive>

export const RegistrationIdParams = IdParams('registration_id')
export const SessionIdParams = IdParams('session_id')
