/** ADL's verbs the LMS writes or checks (cmi5 §9.3 gives them their meaning for an AU; SCORM sessions report with the same). */
export const VERB = {
  launched: 'http://adlnet.gov/expapi/verbs/launched',
  initialized: 'http://adlnet.gov/expapi/verbs/initialized',
  completed: 'http://adlnet.gov/expapi/verbs/completed',
  passed: 'http://adlnet.gov/expapi/verbs/passed',
  failed: 'http://adlnet.gov/expapi/verbs/failed',
  terminated: 'http://adlnet.gov/expapi/verbs/terminated',
  abandoned: 'https://w3id.org/xapi/adl/verbs/abandoned',
  waived: 'https://w3id.org/xapi/adl/verbs/waived',
  satisfied: 'https://w3id.org/xapi/adl/verbs/satisfied',
} as const

const iso8601Seconds = (seconds: number) => `PT${Math.max(0, Math.round(seconds * 100) / 100)}S`

/** A result's `duration` of so many seconds (ISO 8601, hundredths at most). */
export const durationResult = (seconds: number) => ({ duration: iso8601Seconds(seconds) })
