import { type Static, Type } from 'typebox'
import { DateTime, Uuid } from '../../../lib/schemas.js'
import { AuIndex, Launch, LaunchCreate } from '../launch/launch.schemas.js'

export const OfflineCreate = Type.Object(
  { auIndex: AuIndex, returnUrl: LaunchCreate.properties.returnUrl },
  { additionalProperties: false, examples: [{ auIndex: 0, returnUrl: 'https://seaworthy.example.com/console/me/training' }] },
)
export type OfflineCreate = Static<typeof OfflineCreate>

export const OfflineFile = Type.Object({
  url: Type.String({ description: 'On the content origin, inside the session path: download it while online.' }),
  bytes: Type.Integer({ minimum: 0 }),
  sha256: Type.String({ description: 'Hex SHA-256 of the file, to check a download (resumed or not) before it plays.' }),
})
export type OfflineFile = Static<typeof OfflineFile>

export const OfflineLaunch = Type.Object(
  {
    sessionId: Uuid,
    url: Launch.properties.url,
    standard: Launch.properties.standard,
    expiresAt: DateTime,
    files: Type.Array(OfflineFile),
    totalBytes: Type.Integer({ minimum: 0 }),
  },
  {
    title: 'OfflineLaunch',
    examples: [
      {
        sessionId: '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b',
        url: 'https://content.seaworthy.example.com/content/eyJ…/index.html?endpoint=…&fetch=…',
        standard: 'cmi5',
        expiresAt: '2026-12-28T13:00:00.000Z',
        files: [{ url: 'https://content.seaworthy.example.com/content/eyJ…/index.html', bytes: 2048, sha256: 'ab12…' }],
        totalBytes: 2048,
      },
    ],
  },
)
export type OfflineLaunch = Static<typeof OfflineLaunch>

/** The most records (statements, commits and documents, over all its sessions) one sync request carries: the console sends its queue in batches. */
export const SYNC_MAX_RECORDS = 1000

const QueuedStatement = Type.Object(
  { id: Uuid },
  { additionalProperties: true, description: 'An xAPI statement as the AU sent it, with the id the console gave it if it had none.' },
)
const QueuedCommit = Type.Object(
  {
    seq: Type.Integer({
      minimum: 0,
      maximum: 2_147_483_647,
      description: 'The per-session sequence number: a commit at or below the last applied one changes nothing.',
    }),
    cmi: Type.Object({}, { additionalProperties: true }),
    terminate: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)

/** The most state and profile documents a session sends in one sync, and the longest body each may have. */
export const SYNC_MAX_DOCUMENTS = 100
export const SYNC_MAX_DOCUMENT_CHARS = 262_144

const DocumentParam = (description: string) => Type.Optional(Type.String({ maxLength: 2048, description }))
/** Where a document is: its resource and the parameters the course sent to the LRS. */
const DocumentAddress = {
  resource: Type.Union([Type.Literal('activities/state'), Type.Literal('activities/profile'), Type.Literal('agents/profile')]),
  activityId: DocumentParam('As the course sent it to the LRS.'),
  agent: DocumentParam('The agent as the course sent it (JSON text).'),
  registration: DocumentParam('As the course sent it.'),
  stateId: DocumentParam('For `activities/state`.'),
  profileId: DocumentParam('For the profile resources.'),
}
const WrittenDocument = Type.Object(
  {
    ...DocumentAddress,
    contentType: Type.String({ minLength: 1, maxLength: 255 }),
    body: Type.String({
      maxLength: SYNC_MAX_DOCUMENT_CHARS,
      description: 'The whole document as last written on the device (UTF-8 text).',
    }),
    writtenAt: Type.String({
      format: 'date-time',
      description: "When the device last wrote it: it replaces the stored document only when later than that one's `updated`.",
    }),
  },
  { additionalProperties: false, description: 'A state or profile document a course wrote offline, in its last version.' },
)
const DeletedDocument = Type.Object(
  {
    ...DocumentAddress,
    deleted: Type.Literal(true),
    writtenAt: Type.String({
      format: 'date-time',
      description: 'When the device deleted it: the stored document goes unless it was written later (its `updated`).',
    }),
  },
  { additionalProperties: false, description: 'A state or profile document a course deleted offline, as its last change.' },
)
const QueuedDocument = Type.Union([WrittenDocument, DeletedDocument])
export type QueuedDocument = Static<typeof QueuedDocument>

export const SyncCreate = Type.Object(
  {
    sessions: Type.Array(
      Type.Object(
        {
          sessionId: Uuid,
          credential: Type.String({
            pattern: '^[A-Za-z0-9+/=]+$',
            maxLength: 200,
            description:
              "The session's credential as the player holds it: cmi5's auth-token, or base64 of `session.<id>:<secret>` for SCORM.",
          }),
          statements: Type.Optional(Type.Array(QueuedStatement, { maxItems: SYNC_MAX_RECORDS })),
          commits: Type.Optional(Type.Array(QueuedCommit, { maxItems: SYNC_MAX_RECORDS })),
          documents: Type.Optional(Type.Array(QueuedDocument, { maxItems: SYNC_MAX_DOCUMENTS })),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 100 },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        sessions: [
          {
            sessionId: '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b',
            credential: 'c2Vzc2lvbi42ZjFjMmE5ZS4uLjpzZWNyZXQ=',
            commits: [{ seq: 1, cmi: { core: { lesson_status: 'completed', score: { raw: '90' } } }, terminate: true }],
          },
        ],
      },
    ],
  },
)
export type SyncCreate = Static<typeof SyncCreate>
export type SyncSessionRecords = SyncCreate['sessions'][number]

const Refusal = Type.Object({
  statementId: Type.Optional(Uuid),
  seq: Type.Optional(Type.Integer()),
  document: Type.Optional(Type.Integer({ description: "The refused document's index in the session's `documents`." })),
  reason: Type.String(),
})
export type Refusal = Static<typeof Refusal>

export const SyncSessionResult = Type.Object({
  sessionId: Uuid,
  accepted: Type.Integer({ description: 'Records taken, replays included (a replay changes nothing).' }),
  refused: Type.Array(Refusal, { description: 'Records a rule refused: the console shows and keeps them.' }),
})
export type SyncSessionResult = Static<typeof SyncSessionResult>

export const SyncResult = Type.Object(
  { sessions: Type.Array(SyncSessionResult) },
  {
    title: 'SyncResult',
    examples: [{ sessions: [{ sessionId: '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b', accepted: 12, refused: [] }] }],
  },
)
export type SyncResult = Static<typeof SyncResult>
