import { type Static, Type } from 'typebox'
import { Uuid } from '../../../../lib/schemas.js'
import { LaunchModeSchema } from '../../launch/launch.schemas.js'

// The SCORM player's API (scorm.routes.ts): its wire shapes, and through Static<> the service's types.

export const ScormSessionParams = Type.Object({ session_id: Uuid })

const ScormStandard = Type.Union([Type.Literal('scorm12'), Type.Literal('scorm2004')])
export type ScormStandard = Static<typeof ScormStandard>

/** The course's sequencing for the player (SCORM 2004 of several SCOs, DECISIONS §13.6). */
export const ScormSequencing = Type.Object({
  activityTree: Type.Record(Type.String(), Type.Unknown(), {
    description: "The organization as scorm-again's activity tree with each activity's sequencing.",
  }),
  items: Type.Array(Type.Object({ activityId: Type.String(), auIndex: Type.Integer(), url: Type.String(), asset: Type.Boolean() }), {
    description: 'Each leaf activity with the SCO (or asset) it launches.',
  }),
  state: Type.Union([Type.String(), Type.Null()], {
    description: "scorm-again's serialized sequencing state where the course was left; null at first.",
  }),
  sharedData: Type.Record(Type.String(), Type.String(), { description: "adl.data: each shared data bucket's store by id." }),
})
export type ScormSequencing = Static<typeof ScormSequencing>

/** A step of the player's sequencing: the state to keep, and the SCO it delivers (by index), if any. */
export const SequencingStep = Type.Object({
  state: Type.String({ maxLength: 1_000_000 }),
  sharedData: Type.Record(Type.String({ maxLength: 4000 }), Type.String({ maxLength: 64_000 }), { maxProperties: 100 }),
  deliver: Type.Optional(Type.Integer({ minimum: 0 })),
  fresh: Type.Optional(
    Type.Boolean({ description: "No SCO has used the calling session yet (the launch's first): it becomes the delivered SCO's." }),
  ),
})
export type SequencingStep = Static<typeof SequencingStep>

/** The delivered SCO's session: the launch's own (no new secret) or a new one with its secret. */
export const SequencingStepAnswer = Type.Object(
  { sessionId: Type.Optional(Uuid), secret: Type.Optional(Type.String()) },
  { title: 'ScormSequencingStepAnswer', examples: [{ sessionId: '0192f7a4-5b7e-7c3a-9d2e-1a2b3c4d5e6f', secret: 'q8Yz0cJ2…' }] },
)
export type SequencingStepAnswer = Static<typeof SequencingStepAnswer>

/** A session ended because its SCO never called the API. */
export const IdleAnswer = Type.Object(
  { endedBy: Type.Union([Type.Literal('terminated'), Type.Literal('abandoned')]) },
  { title: 'ScormIdleAnswer', examples: [{ endedBy: 'abandoned' }] },
)
export type IdleAnswer = Static<typeof IdleAnswer>

export const ScormRuntime = Type.Object(
  {
    standard: ScormStandard,
    idleSeconds: Type.Integer({
      description: 'How long after launch a SCO that has not called the API is shown as not responding (SCORM_IDLE_SECONDS).',
    }),
    auIndex: Type.Integer({ description: "The session's SCO." }),
    sequencing: Type.Optional(ScormSequencing),
    launchMode: LaunchModeSchema,
    asset: Type.Boolean({
      description: 'The item launches an asset, which never calls the API: the player counts it completed when it is visited.',
    }),
    cmi: Type.Record(Type.String(), Type.Unknown(), {
      description:
        "The cmi to load before the SCO initializes (scorm-again's loadFromJSON): learner id and name, mode, credit, mastery score, the manifest's objective ids (2004, `objectives` keyed by index), and the location and suspend data of this SCO's last session (entry `resume`), else entry `ab-initio`.",
    }),
  },
  {
    title: 'ScormRuntime',
    examples: [
      {
        standard: 'scorm12',
        idleSeconds: 300,
        auIndex: 0,
        launchMode: 'Normal',
        asset: false,
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

/** scorm-again's commit answer (HTTP 200 either way): `true`, or `false` with a SCORM error code (101 general exception, 405 / 406 type). */
export const CommitAnswer = Type.Object(
  {
    result: Type.Union([Type.Literal('true'), Type.Literal('false')]),
    errorCode: Type.Optional(Type.Integer()),
    errorText: Type.Optional(Type.String()),
  },
  { title: 'ScormCommitAnswer', examples: [{ result: 'true' }] },
)
export type CommitAnswer = Static<typeof CommitAnswer>

// What a commit's cmi must hold where the service reads it (DECISIONS §13.7): any other element is kept as
// it comes. scorm-again keeps what a SCO set as the SCO gave it, so a number stands for its text.
const Decimal = Type.Union([Type.Number(), Type.String({ pattern: '^(-?(\\d+(\\.\\d*)?|\\.\\d+))?$' })])
const Text = (maxLength?: number) => Type.Union([Type.String(maxLength === undefined ? {} : { maxLength }), Type.Number()])
const Vocabulary = (...words: string[]) => Type.Union(['', ...words].map((word) => Type.Literal(word)))
const Score = Type.Object({
  scaled: Type.Optional(Decimal),
  raw: Type.Optional(Decimal),
  min: Type.Optional(Decimal),
  max: Type.Optional(Decimal),
})
/** An interaction as the service reads it into `answered` statements; its other elements are kept as they come. */
const Interaction = Type.Object({
  id: Type.Optional(Text()),
  type: Type.Optional(Text()),
  description: Type.Optional(Text()),
  result: Type.Optional(Text()),
  student_response: Type.Optional(Text()),
  learner_response: Type.Optional(Text()),
})
// scorm-again's JSON keys the entries by index; an array is read the same.
const Interactions = Type.Union([Type.Array(Interaction), Type.Record(Type.String(), Interaction)])
const Time = Type.Optional(Text())

/** SCORM 1.2's cmi as committed: suspend_data is a CMIString4096 (RTE 3.4.2). */
export const Scorm12Cmi = Type.Object({
  core: Type.Optional(
    Type.Object({
      lesson_status: Type.Optional(Vocabulary('passed', 'completed', 'failed', 'incomplete', 'browsed', 'not attempted')),
      lesson_location: Type.Optional(Text()),
      score: Type.Optional(Score),
      session_time: Time,
      total_time: Time,
    }),
  ),
  suspend_data: Type.Optional(Text(4096)),
  interactions: Type.Optional(Interactions),
})

/** SCORM 2004's cmi as committed: suspend_data is a characterstring of SPM 64,000 (RTE 4.2.28). */
export const Scorm2004Cmi = Type.Object({
  completion_status: Type.Optional(Vocabulary('completed', 'incomplete', 'not attempted', 'unknown')),
  success_status: Type.Optional(Vocabulary('passed', 'failed', 'unknown')),
  score: Type.Optional(Score),
  location: Type.Optional(Text()),
  suspend_data: Type.Optional(Text(64_000)),
  session_time: Time,
  total_time: Time,
  interactions: Type.Optional(Interactions),
})
