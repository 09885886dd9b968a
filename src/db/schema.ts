import type { ColumnType, Generated, GeneratedAlways } from 'kysely'

// The table types: one source, matching the migrations. Dates travel as 'YYYY-MM-DD' strings.
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>
type CreatedAt = ColumnType<Date, Date | string | undefined, never>
type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>
type DateText = Nullable<string>
type Count = ColumnType<number, number | undefined, number>

// Each enumeration is written once, here: the column types below and the wire schemas
// (`Type.Enum(ROLES)`) both derive from these tuples. The migrations keep their own copies (frozen in time).
export const ROLES = ['admin', 'office_admin', 'office_employee', 'crew'] as const
export type Role = (typeof ROLES)[number]
export const USER_STATES = ['active', 'pending', 'suspended'] as const
export type UserState = (typeof USER_STATES)[number]
export const PRODUCTS = ['learn', 'crew'] as const
export type Product = (typeof PRODUCTS)[number]
export const VERIFICATION_STATUSES = ['not_submitted', 'pending', 'verified', 'rejected'] as const
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number]
export const VERIFICATION_TARGETS = ['identity_document', 'certificate', 'experience'] as const
export type VerificationTarget = (typeof VERIFICATION_TARGETS)[number]
export const UPLOAD_STATUSES = ['pending', 'uploaded', 'ready', 'rejected'] as const
export type UploadStatus = (typeof UPLOAD_STATUSES)[number]
export const REGISTRATION_STATUSES = ['not_started', 'in_progress', 'passed', 'failed'] as const
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number]
export const DOCUMENT_TYPES = ['passport', 'us_visa', 'seaman_book', 'national_id'] as const
export type DocumentType = (typeof DOCUMENT_TYPES)[number]
export const CERTIFICATE_TYPES = [
  'stcw_basic_safety',
  'deck_certificate',
  'gmdss_endorsement',
  'oil_tanker_endorsement',
  'medical',
  'flag_certificate',
  'other',
] as const
export type CertificateType = (typeof CERTIFICATE_TYPES)[number]
export const SHIP_TYPES = [
  'bulk_carrier',
  'oil_tanker',
  'chemical_tanker',
  'gas_tanker',
  'container',
  'general_cargo',
  'ro_ro',
  'passenger',
  'offshore',
  'tug',
  'fishing',
  'other',
] as const
export type ShipType = (typeof SHIP_TYPES)[number]
export const EXPERIENCE_SOURCES = ['manual', 'assignment'] as const
export type ExperienceSource = (typeof EXPERIENCE_SOURCES)[number]
export const CERTIFICATE_SOURCES = ['manual', 'course'] as const
export type CertificateSource = (typeof CERTIFICATE_SOURCES)[number]
/** Every document and certificate type: the keys of the per-type settings maps and of the expiry list's filter. */
export const RECORD_TYPES = [...DOCUMENT_TYPES, ...CERTIFICATE_TYPES]
export type RecordType = DocumentType | CertificateType

export interface OrganizationsTable {
  id: string
  name: string
  domain: Nullable<string>
  products: ColumnType<Product[], Product[] | undefined, Product[]>
  /** Only the keys an admin has set (DECISIONS §10); read with the defaults filled in. */
  settings: ColumnType<Record<string, unknown>, string | undefined, string>
  /** Counts changes of the requirements and settings: stored verdicts judged before one are not used. */
  readiness_gen: Generated<number>
  created_at: CreatedAt
}

export interface UsersTable {
  id: string
  organization_id: string
  email: string
  first_name: string
  last_name: string
  role: Role
  state: UserState
  password_hash: Nullable<string>
  /** The admin made by `org create`: keeps password login when single sign-on is enforced. */
  break_glass: ColumnType<boolean, boolean | undefined, boolean>
  last_login: Nullable<Date>
  /** Set by a trigger on suspension: tokens issued up to this instant stay refused. */
  tokens_valid_after: ColumnType<Date | null, never, never>
  created_at: CreatedAt
  updated_at: Timestamp
}

export interface LoginFailuresTable {
  id: Generated<string>
  email_lower: string
  address: string
  created_at: CreatedAt
}

export interface ShipsTable {
  id: string
  organization_id: string
  name: string
  imo_number: string
  mmsi: Nullable<string>
  call_sign: Nullable<string>
  flag: Nullable<string>
  port_of_registry: Nullable<string>
  ship_type: Nullable<ShipType>
  gross_tonnage: Nullable<number>
  propulsion_power_kw: Nullable<number>
  created_at: CreatedAt
  updated_at: Timestamp
}

export interface UploadsTable {
  id: string
  organization_id: string
  user_id: string
  kind: string
  mime: string
  declared_size: ColumnType<number, number, number>
  original_filename: string
  storage_key: string
  status: UploadStatus
  size_bytes: Nullable<number>
  sha256: Nullable<string>
  width: Nullable<number>
  height: Nullable<number>
  page_count: Nullable<number>
  threat_name: Nullable<string>
  derivatives: ColumnType<unknown[], string | undefined, string>
  /** Set for a resumable (tus) upload: when its unfinished transfer expires. */
  resumable_until: Nullable<Date>
  created_at: CreatedAt
  updated_at: Timestamp
}

/** The columns identity documents and certificates share. */
export interface ExpiringRecord {
  id: string
  organization_id: string
  user_id: string
  issue_date: DateText
  expiry_date: DateText
  upload_id: Nullable<string>
  uploaded_by_user_id: string
  notes: Nullable<string>
  created_at: CreatedAt
  updated_at: Timestamp
}

export interface IdentityDocumentsTable extends ExpiringRecord {
  document_type: DocumentType
  document_number: Nullable<string>
  issuing_country: Nullable<string>
}

export interface CertificatesTable extends ExpiringRecord {
  certificate_type: CertificateType
  certificate_number: Nullable<string>
  issuing_authority: Nullable<string>
  /** `course` when issued by a passed registration (DECISIONS §14), at most one per person and type; set by a trigger. */
  source: ColumnType<CertificateSource, CertificateSource | undefined, CertificateSource>
  registration_id: ColumnType<string | null, string | null | undefined, string | null>
}

export interface ExperiencesTable {
  id: string
  organization_id: string
  user_id: string
  company_name: string
  position: string
  ship_type: Nullable<string>
  start_date: string
  end_date: DateText
  notes: Nullable<string>
  /** `assignment` when made from an ended assignment (DECISIONS §14), at most one per assignment. */
  source: ColumnType<ExperienceSource, ExperienceSource | undefined, ExperienceSource>
  assignment_id: Nullable<string>
  created_at: CreatedAt
  updated_at: Timestamp
}

export interface NextOfKinTable {
  id: string
  organization_id: string
  user_id: string
  relationship: string
  full_name: string
  phone: Nullable<string>
  email: Nullable<string>
  address: Nullable<string>
  created_at: CreatedAt
  updated_at: Timestamp
}

export interface VerificationsTable {
  target_type: VerificationTarget
  target_id: string
  organization_id: string
  user_id: string
  status: VerificationStatus
  rejection_reason: Nullable<string>
  reviewed_at: Nullable<Date>
  reviewer_user_id: Nullable<string>
  submitted_at: Nullable<Date>
  created_at: CreatedAt
  updated_at: Timestamp
}

export interface VerificationEventsTable {
  id: Generated<string>
  organization_id: string
  target_type: VerificationTarget
  target_id: string
  from_status: VerificationStatus | null
  to_status: VerificationStatus
  action: string
  actor_user_id: string | null
  reason: string | null
  created_at: CreatedAt
}

export interface CoursesTable {
  id: string
  organization_id: string
  title: string
  /** lower(title), kept by PostgreSQL: what a search compares (`titleMatches`, courses.queries.ts). */
  title_search: GeneratedAlways<string>
  description: Nullable<string>
  s3_path: string
  launch_file: string
  /** The current package version (course_packages); null for a course created as a pointer only. */
  package_id: Nullable<string>
  /** The certificate a pass issues (DECISIONS §14): both set or both null. */
  certificate_type: ColumnType<CertificateType | null, CertificateType | null | undefined, CertificateType | null>
  certificate_validity_months: ColumnType<number | null, number | null | undefined, number | null>
  created_at: CreatedAt
  updated_at: Timestamp
}

export const COURSE_STANDARDS = ['cmi5', 'scorm12', 'scorm2004'] as const
export type CourseStandard = (typeof COURSE_STANDARDS)[number]
export const IMPORT_STATUSES = ['running', 'complete', 'failed'] as const
export type ImportStatus = (typeof IMPORT_STATUSES)[number]

/** One broken rule of a package: a code, what is wrong, and the file, element or AU it is in. */
export interface ImportError {
  code: string
  message: string
  path: string
}

export interface CourseImportsTable {
  id: string
  organization_id: string
  upload_id: string
  /** The course to replace (when given), then the course the package became. */
  course_id: Nullable<string>
  status: ImportStatus
  standard: Nullable<CourseStandard>
  errors: ColumnType<ImportError[], string | undefined, string>
  created_by: string
  request_id: Nullable<string>
  created_at: CreatedAt
  finished_at: Nullable<Date>
  /** Runs that failed for a reason outside the package (DECISIONS §13.7: at most 3 retries). */
  attempts: Generated<number>
}

export interface CoursePackagesTable {
  id: string
  organization_id: string
  course_id: string
  standard: CourseStandard
  storage_prefix: string
  /** The course's publisher id (cmi5), or the manifest's identifier (SCORM). */
  publisher_id: Nullable<string>
  /** cmi5 blocks: `{id, auIndexes}` in document order, for `satisfied` per block. */
  blocks: ColumnType<unknown[], string | undefined, string>
  /** SCORM 2004: the organization as scorm-again's activity tree (sequencing.activityTree). */
  activity_tree: ColumnType<unknown | null, string | null | undefined, string | null>
  created_at: CreatedAt
}

export interface CourseAusTable {
  package_id: string
  au_index: number
  publisher_id: string
  title: string
  url: string
  move_on: string
  mastery_score: Nullable<number>
  launch_method: string
  launch_parameters: Nullable<string>
  entitlement_key: Nullable<string>
  activity_type: Nullable<string>
  /** SCORM: the item launches an asset, which never calls the API. */
  scorm_asset: Generated<boolean>
  /** SCORM 2004: the item's objective ids (imsss:objectives), which the runtime starts with. */
  objective_ids: ColumnType<string[], string | undefined, string>
}

export interface CourseStatsTable {
  course_id: string
  organization_id: string
  enrollments: Count
  attempted: Count
  attempts_total: Count
  passed: Count
}

export interface CurriculumsTable {
  id: string
  organization_id: string
  title: string
  description: ColumnType<string, string | undefined, string>
  created_at: CreatedAt
  updated_at: Timestamp
}

export interface CurriculumCoursesTable {
  curriculum_id: string
  course_id: string
  organization_id: string
  position: Generated<string>
}

export interface AssignmentsTable {
  id: string
  organization_id: string
  user_id: string
  ship_id: string
  role: string
  start_date: DateText
  due_date: DateText
  end_date: DateText
  /** Counts changes of the registrations: stored verdicts judged before one are not used. */
  readiness_gen: Generated<number>
  created_at: CreatedAt
  updated_at: Timestamp
}

/** A verdict stored for the ship summary, with what it was judged from (migration 1801). */
export interface ReadinessVerdictsTable {
  assignment_id: string
  organization_id: string
  user_id: string
  role: string
  start_date: DateText
  due_date: DateText
  end_date: DateText
  assignment_gen: number
  holder_gen: number
  organization_gen: number
  as_of: string
  default_window_days: number
  blocker_count: number
  codes: string[]
}

/** Counts changes of a person's identity documents, certificates, experience and reviews (migrations 1801, 2902). */
export interface ReadinessHoldersTable {
  organization_id: string
  user_id: string
  gen: number
}

/** A verified experience row's counted days, kept by triggers (migration 2904). */
export interface SeaServicePeriodsTable {
  experience_id: string
  organization_id: string
  user_id: string
  ship_type: string | null
  role_key: string
  /** A datemultirange, as PostgreSQL writes it. */
  counted: string
}

/** A person's counted days over every ship type (ship_type '') and per ship type, kept by triggers (migration 2904). */
export interface SeaServiceTotalsTable {
  organization_id: string
  user_id: string
  ship_type: string
  counted: string
  open: boolean
  settled_on: string
  rank_days: number
}

export interface AssignmentCoursesTable {
  assignment_id: string
  course_id: string
  organization_id: string
  created_at: CreatedAt
}

export interface RegistrationsTable {
  id: string
  organization_id: string
  assignment_id: string
  course_id: string
  status: ColumnType<RegistrationStatus, RegistrationStatus | undefined, RegistrationStatus>
  completed_at: Nullable<Date>
  score_percent: Nullable<number>
  time_spent_seconds: Count
  attempt_count: Count
  created_at: CreatedAt
  updated_at: Timestamp
  /** The package version of its first launch, kept when the course's package is replaced; null before it. */
  package_id: ColumnType<string | null, string | null | undefined, string | null>
}

export type LaunchMode = 'Normal' | 'Browse' | 'Review'

export interface LearningSessionsTable {
  id: string
  organization_id: string
  registration_id: string
  package_id: string
  au_index: number
  launch_mode: LaunchMode
  /** The LMS-generated activity id of the AU in this registration (cmi5 §8.1.5). */
  activity_id: string
  /** SHA-256 of the session credential's secret (cmi5: made by the fetch; SCORM: at launch). */
  secret_hash: Nullable<string>
  /** SHA-256 of the one-time fetch URL's secret (cmi5); null for SCORM. */
  fetch_hash: Nullable<string>
  fetched: Generated<boolean>
  created_at: CreatedAt
  expires_at: Date
  last_seen_at: Nullable<Date>
  /** cmi5 §10: the AU has read its LMS.LaunchData State document (it must, before `initialized`). */
  launch_data_read: Generated<boolean>
  initialized: Generated<boolean>
  completed: Generated<boolean>
  outcome: ColumnType<'passed' | 'failed' | null, 'passed' | 'failed' | null | undefined, 'passed' | 'failed' | null>
  score_scaled: Nullable<number>
  ended_at: Nullable<Date>
  ended_by: ColumnType<'terminated' | 'abandoned' | null, 'terminated' | 'abandoned' | null | undefined, 'terminated' | 'abandoned' | null>
  duration_seconds: Nullable<number>
  /** SCORM: the runtime data last committed (cmi), which the next session resumes from. */
  runtime: ColumnType<unknown, string | null | undefined, string | null>
  /** Until when a session played offline accepts records: 7 days after `expires_at` (DECISIONS §16); null: until `expires_at`. */
  accepts_until: ColumnType<Date | null, Date | null | undefined, Date | null>
  /** SCORM played offline: the sequence number of the last commit applied (a replayed one changes nothing). */
  commit_seq: Nullable<number>
}

/** SCORM 2004 with sequencing (DECISIONS §13.6): where the registration's course was left (suspend all). */
export interface ScormSequencingStatesTable {
  registration_id: string
  organization_id: string
  /** scorm-again's serialized sequencing state (the activity tree's tracking, the suspended activity). */
  state: string
  /** adl.data: the shared data buckets' stores by id. */
  shared_data: ColumnType<Record<string, string>, string, string>
  updated_at: Generated<Date>
}

/** A package version's files (DECISIONS §16), for the console to download for offline play and check. */
export interface CoursePackageFilesTable {
  package_id: string
  path: string
  bytes: ColumnType<number, number, number>
  sha256: string
}

export interface RegistrationAusTable {
  registration_id: string
  au_index: number
  completed: Generated<boolean>
  passed: Generated<boolean>
  failed: Generated<boolean>
  /** The reason it was waived (cmi5 §9.5.5.2), or null. */
  waived: Nullable<string>
  satisfied: Generated<boolean>
}

export interface AttemptsTable {
  registration_id: string
  attempt_id: string
  organization_id: string
  passed: boolean
  score_percent: Nullable<number>
  time_spent_seconds: Nullable<number>
  finished_at: Nullable<Date>
  created_at: CreatedAt
}

export interface SsoSettingsTable {
  organization_id: string
  issuer: string
  client_id: string
  audience: Nullable<string>
  role_claim: Nullable<string>
  role_map: ColumnType<Record<string, Role>, string, string>
  default_role: Role
  enforce: boolean
  redirect_uris: string[]
  client_secret: Nullable<string>
  created_at: CreatedAt
  updated_at: Timestamp
}

export interface SsoLoginStatesTable {
  state: string
  organization_id: string
  nonce: string
  code_verifier: string
  redirect_uri: string
  expires_at: Date
}

export interface IdempotencyKeysTable {
  organization_id: string
  user_id: string
  key: string
  fingerprint: string
  claim: string
  status_code: Nullable<number>
  content_type: Nullable<string>
  body: Nullable<string>
  created_at: Timestamp
}

export interface RequirementsTable {
  organization_id: string
  position: number
  role: string
  document_types: string[]
  certificate_types: string[]
  min_sea_service_days: Nullable<number>
}

/** The audit trail (DECISIONS §11): append-only, the database refuses UPDATE and DELETE. */
export interface EventsTable {
  id: string
  organization_id: string
  type: string
  occurred_at: CreatedAt
  actor_user_id: string | null
  actor_role: Role | null
  target_type: string
  target_id: string | null
  data: ColumnType<unknown, string, never>
  request_id: string | null
}

export interface WebhooksTable {
  id: string
  organization_id: string
  url: string
  events: string[]
  description: Nullable<string>
  active: ColumnType<boolean, boolean | undefined, boolean>
  secret: string
  created_at: CreatedAt
  updated_at: Timestamp
}

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]

export interface WebhookDeliveriesTable {
  id: string
  organization_id: string
  webhook_id: string
  event_id: string
  event_type: string
  attempt: Count
  status: ColumnType<DeliveryStatus, DeliveryStatus | undefined, DeliveryStatus>
  response_status: Nullable<number>
  duration_ms: Nullable<number>
  next_attempt_at: Nullable<Date>
  locked_until: Nullable<Date>
  created_at: CreatedAt
}

/** A periodic job's lease: at most one instance runs the job while it holds an unexpired one. */
export interface JobLeasesTable {
  job: string
  holder: string
  expires_at: Date
}

/** Where a periodic sweep last left an organization: the next run reads only what changed since. */
export interface SweepMarksTable {
  organization_id: string
  job: string
  swept_at: Date
  swept_day: string
}

export interface ExpiryNoticesTable {
  target_type: string
  target_id: string
  expiry_date: string
  threshold: number
  organization_id: string
  created_at: CreatedAt
}

/** The LRS's credentials (DECISIONS §13.1): the secret only as its SHA-256. */
export interface XapiCredentialsTable {
  id: string
  organization_id: string
  name: string
  key: string
  secret_hash: string
  scopes: string[]
  created_by: string | null
  created_at: CreatedAt
}

/** xAPI statements: append-only (voiding aside), the whole statement in `statement`, the filter columns beside it. */
export interface XapiStatementsTable {
  organization_id: string
  id: string
  seq: Generated<string>
  stored: Timestamp
  credential_id: string | null
  actor_key: string | null
  object_agent_key: string | null
  verb_id: string
  activity_id: string | null
  statement_ref: string | null
  registration: string | null
  related_agents: string[]
  related_activities: string[]
  voided: ColumnType<boolean, boolean | undefined, boolean>
  statement: ColumnType<Record<string, unknown>, string, never>
}

export interface XapiAttachmentsTable {
  organization_id: string
  sha2: string
  content_type: string
  content: Buffer
}

export interface XapiActivitiesTable {
  organization_id: string
  id: string
  definition: ColumnType<Record<string, unknown> | null, string | null, string | null>
}

export const XAPI_DOCUMENT_KINDS = ['state', 'activity_profile', 'agent_profile'] as const
export type XapiDocumentKind = (typeof XAPI_DOCUMENT_KINDS)[number]

export interface XapiDocumentsTable {
  organization_id: string
  kind: XapiDocumentKind
  activity_id: string
  agent_key: string
  registration: string
  document_id: string
  content_type: string
  content: Buffer
  etag: string
  updated: Timestamp
}

export type AccountLinkPurpose = 'invitation' | 'password_reset'

/** A one-time link of DECISIONS §15: only the hash of its token is kept. */
export interface AccountLinksTable {
  id: string
  organization_id: string
  user_id: string
  purpose: AccountLinkPurpose
  token_hash: string
  expires_at: Date
  used_at: Nullable<Date>
  revoked_at: Nullable<Date>
  created_at: CreatedAt
}

/** A refresh token (hash only); `family_id` ties every token descended from one sign-in. */
export interface RefreshTokensTable {
  id: string
  organization_id: string
  user_id: string
  family_id: string
  token_hash: string
  expires_at: Date
  spent_at: Nullable<Date>
  revoked_at: Nullable<Date>
  created_at: CreatedAt
}

/** The one live crew record an upload backs, kept by triggers (DECISIONS §5 item 6). */
export interface UploadRecordsTable {
  upload_id: string
  record_id: string
}

export interface DB {
  organizations: OrganizationsTable
  users: UsersTable
  login_failures: LoginFailuresTable
  ships: ShipsTable
  uploads: UploadsTable
  identity_documents: IdentityDocumentsTable
  certificates: CertificatesTable
  experiences: ExperiencesTable
  next_of_kin: NextOfKinTable
  verifications: VerificationsTable
  verification_events: VerificationEventsTable
  courses: CoursesTable
  course_imports: CourseImportsTable
  course_packages: CoursePackagesTable
  course_aus: CourseAusTable
  course_package_files: CoursePackageFilesTable
  scorm_sequencing_states: ScormSequencingStatesTable
  learning_sessions: LearningSessionsTable
  registration_aus: RegistrationAusTable
  course_stats: CourseStatsTable
  curriculums: CurriculumsTable
  curriculum_courses: CurriculumCoursesTable
  assignments: AssignmentsTable
  assignment_courses: AssignmentCoursesTable
  registrations: RegistrationsTable
  attempts: AttemptsTable
  sso_settings: SsoSettingsTable
  sso_login_states: SsoLoginStatesTable
  idempotency_keys: IdempotencyKeysTable
  requirements: RequirementsTable
  readiness_verdicts: ReadinessVerdictsTable
  readiness_holders: ReadinessHoldersTable
  sea_service_periods: SeaServicePeriodsTable
  sea_service_totals: SeaServiceTotalsTable
  events: EventsTable
  webhooks: WebhooksTable
  webhook_deliveries: WebhookDeliveriesTable
  expiry_notices: ExpiryNoticesTable
  job_leases: JobLeasesTable
  sweep_marks: SweepMarksTable
  xapi_credentials: XapiCredentialsTable
  xapi_statements: XapiStatementsTable
  xapi_attachments: XapiAttachmentsTable
  xapi_activities: XapiActivitiesTable
  xapi_documents: XapiDocumentsTable
  account_links: AccountLinksTable
  refresh_tokens: RefreshTokensTable
  upload_records: UploadRecordsTable
}
