import type { LearningStandard } from '../launch/standard.js'
import { cmi5 } from './cmi5/cmi5.standard.js'
import { scorm } from './scorm/scorm.standard.js'

/**
 * The learning standards the service runs, each a folder beside this file behind launch's
 * LearningStandard (launch/standard.ts). A new one (AICC, an xAPI profile) is a folder and a line here.
 * In this order a package's manifest is looked for.
 */
export const STANDARDS: readonly LearningStandard[] = [cmi5, scorm]

/** Their package readers, for the import (which reads packages before any launch). */
export const PACKAGE_READERS = STANDARDS.map((standard) => standard.package)
