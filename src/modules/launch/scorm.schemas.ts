import { type Static, Type } from 'typebox'
import { Uuid } from '../../lib/schemas.js'
import { LaunchModeSchema } from './launch.schemas.js'

// The SCORM player's API (scorm.routes.ts): its wire shapes, and through Static<> the service's types.

export const ScormSessionParams = Type.Object({ session_id: Uuid })

const ScormStandard = Type.Union([Type.Literal('scorm12'), Type.Literal('scorm2004')])
export type ScormStandard = Static<typeof ScormStandard>

export const ScormRuntime = Type.Object(
  {
    standard: ScormStandard,
    launchMode: LaunchModeSchema,
    cmi: Type.Record(Type.String(), Type.Unknown(), {
      description:
        "The cmi to load before the SCO initializes (scorm-again's loadFromJSON): learner id and name, mode, credit, mastery score, and the location and suspend data of this SCO's last session (entry `resume`), else entry `ab-initio`.",
    }),
  },
  {
    title: 'ScormRuntime',
    examples: [
      {
        standard: 'scorm12',
        launchMode: 'Normal',
        cmi: {
          core: {
            student_id: '0192f7a4-5b7e-7c3a-9d2e-1a2b3c4d5e6f',
            student_name: 'Crew, Ana',
            entry: 'resume',
            lesson_location: 'page-2',
          },
        },
      },
    ],
  },
)
export type ScormRuntime = Static<typeof ScormRuntime>

/** scorm-again's commit answer (HTTP 200 either way): `true`, or `false` with a SCORM error code (101: general exception). */
export const CommitAnswer = Type.Object(
  {
    result: Type.Union([Type.Literal('true'), Type.Literal('false')]),
    errorCode: Type.Optional(Type.Integer()),
    errorText: Type.Optional(Type.String()),
  },
  { title: 'ScormCommitAnswer', examples: [{ result: 'true' }] },
)
export type CommitAnswer = Static<typeof CommitAnswer>
