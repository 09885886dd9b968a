import type { Migration } from 'kysely/migration'
import * as initial from './2026_11_21_0001_initial.js'
import * as courseIndexes from './2026_11_21_0008_course_indexes.js'
import * as actorNotifications from './2026_11_21_0009_actor_notifications.js'
import * as oneActiveAssignment from './2026_11_23_0101_one_active_assignment.js'
import * as loginFailuresCreated from './2026_11_23_0301_login_failures_created.js'
import * as organizationSettings from './2026_11_23_0801_organization_settings.js'
import * as requirements from './2026_11_23_0802_requirements.js'
import * as readinessIndexes from './2026_11_23_0803_readiness_indexes.js'
import * as sso from './2026_11_23_0901_sso.js'
import * as tokensValidAfter from './2026_11_23_1101_tokens_valid_after.js'
import * as idempotencyKeys from './2026_11_23_1102_idempotency_keys.js'
import * as events from './2026_11_23_1301_events.js'
import * as webhooks from './2026_11_23_1311_webhooks.js'
import * as oneCreationTimestamp from './2026_11_23_1601_one_creation_timestamp.js'
import * as uuidV7 from './2026_11_24_1701_uuid_v7.js'
import * as hotRowForeignKeys from './2026_11_24_1702_hot_row_foreign_keys.js'
import * as fanOutEarlyExit from './2026_11_24_1703_fan_out_early_exit.js'
import * as storedVerdicts from './2026_11_24_1801_stored_verdicts.js'
import * as xapi from './2026_11_27_1001_xapi.js'
import * as accounts from './2026_11_27_2501_accounts.js'
import * as shipParticulars from './2026_11_27_2901_ship_particulars.js'
import * as seaService from './2026_11_27_2902_sea_service.js'
import * as courseCertificates from './2026_11_27_2903_course_certificates.js'
import * as seaServiceTotals from './2026_11_27_2904_sea_service_totals.js'
import * as seaServicePersonLocks from './2026_11_27_3001_sea_service_person_locks.js'
import * as coursePackages from './2026_11_27_2701_course_packages.js'
import * as learningSessions from './2026_11_27_2702_learning_sessions.js'
import * as xapiHotRowKeys from './2026_11_27_2601_xapi_hot_row_keys.js'
import * as launchDataRead from './2026_11_28_3701_launch_data_read.js'
import * as courseImportAttempts from './2026_11_28_3601_course_import_attempts.js'
import * as databaseRules from './2026_11_28_3801_database_rules.js'
import * as courseCertificateInStatement from './2026_11_28_3802_course_certificate_in_statement.js'
import * as courseStatsPassedRecount from './2026_11_28_3803_course_stats_passed_recount.js'
import * as scormAssetsObjectives from './2026_11_28_3901_scorm_assets_objectives.js'
import * as scormActivityTree from './2026_11_28_3902_scorm_activity_tree.js'
import * as overlapMarksHolder from './2026_11_28_4001_overlap_marks_holder.js'
import * as offlineSessions from './2026_11_28_4101_offline_sessions.js'
import * as scormSequencingStates from './2026_11_29_3903_scorm_sequencing_states.js'
import * as sweepLeases from './2026_11_29_4201_sweep_leases.js'
import * as createWithoutIdleRules from './2026_11_29_4202_create_without_idle_rules.js'
import * as courseTitleSearch from './2026_11_29_4203_course_title_search.js'
import * as resumableUploads from './2026_11_29_4301_resumable_uploads.js'

// Listed explicitly (not read from the folder) so the same set runs from the sources, the build and the tests.
export const migrations: Record<string, Migration> = {
  '2026_11_21_0001_initial': initial,
  '2026_11_21_0008_course_indexes': courseIndexes,
  '2026_11_21_0009_actor_notifications': actorNotifications,
  '2026_11_23_0101_one_active_assignment': oneActiveAssignment,
  '2026_11_23_0301_login_failures_created': loginFailuresCreated,
  '2026_11_23_0901_sso': sso,
  '2026_11_23_1101_tokens_valid_after': tokensValidAfter,
  '2026_11_23_1102_idempotency_keys': idempotencyKeys,
  '2026_11_23_0801_organization_settings': organizationSettings,
  '2026_11_23_0802_requirements': requirements,
  '2026_11_23_0803_readiness_indexes': readinessIndexes,
  '2026_11_23_1301_events': events,
  '2026_11_23_1311_webhooks': webhooks,
  '2026_11_23_1601_one_creation_timestamp': oneCreationTimestamp,
  '2026_11_24_1701_uuid_v7': uuidV7,
  '2026_11_24_1702_hot_row_foreign_keys': hotRowForeignKeys,
  '2026_11_24_1703_fan_out_early_exit': fanOutEarlyExit,
  '2026_11_24_1801_stored_verdicts': storedVerdicts,
  '2026_11_27_1001_xapi': xapi,
  '2026_11_27_2501_accounts': accounts,
  '2026_11_27_2901_ship_particulars': shipParticulars,
  '2026_11_27_2902_sea_service': seaService,
  '2026_11_27_2903_course_certificates': courseCertificates,
  '2026_11_27_2904_sea_service_totals': seaServiceTotals,
  '2026_11_27_3001_sea_service_person_locks': seaServicePersonLocks,
  '2026_11_27_2701_course_packages': coursePackages,
  '2026_11_27_2702_learning_sessions': learningSessions,
  '2026_11_27_2601_xapi_hot_row_keys': xapiHotRowKeys,
  '2026_11_28_3701_launch_data_read': launchDataRead,
  '2026_11_28_3601_course_import_attempts': courseImportAttempts,
  '2026_11_28_3801_database_rules': databaseRules,
  '2026_11_28_3802_course_certificate_in_statement': courseCertificateInStatement,
  '2026_11_28_3803_course_stats_passed_recount': courseStatsPassedRecount,
  '2026_11_28_3901_scorm_assets_objectives': scormAssetsObjectives,
  '2026_11_28_3902_scorm_activity_tree': scormActivityTree,
  '2026_11_28_4001_overlap_marks_holder': overlapMarksHolder,
  '2026_11_28_4101_offline_sessions': offlineSessions,
  '2026_11_29_3903_scorm_sequencing_states': scormSequencingStates,
  '2026_11_29_4201_sweep_leases': sweepLeases,
  '2026_11_29_4202_create_without_idle_rules': createWithoutIdleRules,
  '2026_11_29_4203_course_title_search': courseTitleSearch,
  '2026_11_29_4301_resumable_uploads': resumableUploads,
}
