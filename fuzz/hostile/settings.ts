// The service's settings for the hostile-input run, and what the suite expects of it: one place to align
// with the names DECISIONS §13.7 and issue 36 give the limits. Settings the service does not know yet
// are ignored by it (config.ts reads only the names it declares).

/** Each case must be answered (its 4xx, or its import ended) within this. */
export const CASE_DEADLINE_MS = 5_000
/** Every GET /healthz during a case must answer within this. */
export const HEALTHZ_LIMIT_MS = 100

export const MIB = 1024 * 1024

/** The largest package upload of the run: small, so the limits are reached with small archives. */
export const PACKAGE_MAX_BYTES = 8 * MIB
/** DECISIONS §13.7's expanded-size limit, set small for the run (default 2 GiB). */
export const PACKAGE_MAX_EXPANDED_BYTES = 32 * MIB
/** DECISIONS §13.7: a package expanding past this many times its compressed size is refused. */
export const MAX_EXPANSION_RATIO = 100
/** DECISIONS §13.7's LRS limits, at their defaults. */
export const XAPI_MAX_ATTACHMENTS = 100
export const XAPI_MAX_BODY_BYTES = 32 * MIB
export const XAPI_MAX_BATCH = 1_000
/** Issue 36: a body slower than this, after the grace, is cut with 408. */
export const MIN_BYTES_PER_SECOND = 512
export const MIN_RATE_GRACE_SECONDS = 2

export const SERVICE_ENV: Record<string, string> = {
  COURSE_PACKAGE_MAX_BYTES: String(PACKAGE_MAX_BYTES),
  COURSE_PACKAGE_MAX_EXPANDED_BYTES: String(PACKAGE_MAX_EXPANDED_BYTES),
  // A poisoned import must end well within a case; the timeout is the safety net, not the way it ends.
  COURSE_IMPORT_TIMEOUT_SECONDS: '600',
  XAPI_MAX_ATTACHMENTS: String(XAPI_MAX_ATTACHMENTS),
  XAPI_MAX_BODY_BYTES: String(XAPI_MAX_BODY_BYTES),
  XAPI_MAX_BATCH: String(XAPI_MAX_BATCH),
  REQUEST_MIN_BYTES_PER_SECOND: String(MIN_BYTES_PER_SECOND),
  REQUEST_BODY_GRACE_SECONDS: String(MIN_RATE_GRACE_SECONDS),
  // Long enough that only the minimum rate can cut the slow body within a case.
  REQUEST_TIMEOUT_SECONDS: '60',
}

/**
 * The error code a failed import names for each kind of broken package (DECISIONS §13.7 names
 * `duplicate_entry`; the others are the import's own, as its error handling names them).
 */
export const IMPORT_ERROR_CODES = {
  corruptEntry: 'entry_corrupt',
  lyingSize: 'entry_size_mismatch',
  expansion: 'expansion_too_large',
  ratio: 'expansion_ratio_too_large',
  nulName: 'invalid_name',
  fileFolderClash: 'path_conflict',
  deepXml: 'xml_too_deep',
  malformedXml: 'xml_malformed',
  duplicateEntry: 'duplicate_entry',
} as const
