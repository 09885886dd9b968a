import Type, { type Static } from 'typebox'
import { COURSE_STANDARDS, IMPORT_STATUSES } from '../../../db/schema.js'
import { DateTime, IdParams, Nullable, Uuid } from '../../../lib/schemas.js'

export const ImportErrorSchema = Type.Object(
  {
    code: Type.String({ description: 'Which rule, e.g. duplicate_id, url_not_in_package, unsafe_path' }),
    message: Type.String(),
    path: Type.String({ description: 'The file, element or AU the rule is broken in' }),
  },
  { title: 'CourseImportError' },
)

export const CourseImport = Type.Object(
  {
    id: Uuid,
    status: Type.Enum(IMPORT_STATUSES),
    standard: Nullable(Type.Enum(COURSE_STANDARDS, { description: 'Null until detected' })),
    courseId: Nullable(Uuid),
    errors: Type.Array(ImportErrorSchema),
    createdAt: DateTime,
    finishedAt: Nullable(DateTime),
  },
  {
    title: 'CourseImport',
    examples: [
      {
        id: '0190a000-0000-7000-8000-000000000c01',
        status: 'complete',
        standard: 'cmi5',
        courseId: '0190a000-0000-7000-8000-000000000c02',
        errors: [],
        createdAt: '2026-06-15T08:30:00.000Z',
        finishedAt: '2026-06-15T08:30:04.000Z',
      },
    ],
  },
)
export type CourseImport = Static<typeof CourseImport>

export const CourseImportCreate = Type.Object(
  {
    uploadId: Uuid,
    courseId: Type.Optional(Uuid),
  },
  { title: 'CourseImportCreate', examples: [{ uploadId: '0190a000-0000-7000-8000-000000000a07' }] },
)

export const CourseImportParams = IdParams('import_id')
export const StructureParams = IdParams('course_id')

export const MOVE_ON = ['Passed', 'Completed', 'CompletedAndPassed', 'CompletedOrPassed', 'NotApplicable'] as const
export type MoveOn = (typeof MOVE_ON)[number]
export const LAUNCH_METHODS = ['AnyWindow', 'OwnWindow'] as const

/** An activity of a SCORM 2004 package's tree and what its sequencing does (SCORM's defaults filled in). */
export const ActivitySummary = Type.Object({
  id: Type.String({ description: "The item's identifier (the organization's for the root)" }),
  title: Type.String(),
  parentId: Nullable(Type.String()),
  auIndex: Nullable(Type.Integer({ description: 'The launchable unit of a leaf (the index in `aus`); null for the root and clusters' })),
  controls: Type.Object({ choice: Type.Boolean(), choiceExit: Type.Boolean(), flow: Type.Boolean(), forwardOnly: Type.Boolean() }),
  attemptLimit: Nullable(Type.Integer()),
  rules: Type.Array(Type.String(), {
    description: 'Pre, exit and post condition rules, each as `kind: action when combination of conditions`',
  }),
  objectives: Type.Array(
    Type.Object({
      id: Type.String(),
      primary: Type.Boolean(),
      globals: Type.Array(Type.String(), { description: 'Shared global objectives it maps to' }),
    }),
  ),
  rollup: Type.Object({ objectiveSatisfied: Type.Boolean(), progressCompletion: Type.Boolean(), rules: Type.Array(Type.String()) }),
})
export type ActivitySummary = Static<typeof ActivitySummary>

export const CourseStructure = Type.Object(
  {
    standard: Type.Enum(COURSE_STANDARDS),
    activities: Type.Optional(
      Type.Array(ActivitySummary, {
        description:
          "SCORM 2004: the organization's activity tree in document order (DECISIONS §13.6), each activity with its parent and sequencing",
      }),
    ),
    aus: Type.Array(
      Type.Object({
        index: Type.Integer({ description: 'The AU or SCO in launch order, from 0' }),
        id: Type.String({ description: "The publisher's AU id (cmi5) or the item's identifier (SCORM)" }),
        title: Type.String(),
        url: Type.String({ description: 'Relative to the package, or absolute' }),
        moveOn: Type.Enum(MOVE_ON),
        masteryScore: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
        launchMethod: Type.Enum(LAUNCH_METHODS),
      }),
    ),
  },
  {
    title: 'CourseStructure',
    examples: [
      {
        standard: 'cmi5',
        aus: [
          {
            index: 0,
            id: 'https://example.com/courses/fire-safety/au/1',
            title: 'Fire safety on board',
            url: 'index.html',
            moveOn: 'CompletedAndPassed',
            masteryScore: 0.8,
            launchMethod: 'AnyWindow',
          },
        ],
      },
    ],
  },
)
export type CourseStructure = Static<typeof CourseStructure>
