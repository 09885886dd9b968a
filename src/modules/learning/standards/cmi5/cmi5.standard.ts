import { auActivityId } from '../../launch/registration-run.js'
import type { LearningStandard } from '../../launch/standard.js'
import { durationResult } from '../../xapi/vocabulary.js'
import { EXTENSION, lmsStatement, satisfiedStatements, statementContext } from './cmi5.js'
import { cmi5FetchRoutes } from './cmi5.routes.js'
import { CMI5_FILE, readCmi5 } from './cmi5-course-structure.js'
import { prepareCmi5 } from './cmi5-launch.js'
import { cmi5Lrs } from './cmi5-session.js'

/**
 * cmi5 (DECISIONS §13): a course structure; a launch URL with LMS.LaunchData and `launched` written
 * first and a one-time fetch for the credential; the AU's own statements at the LRS, under cmi5's
 * rules; the LMS's `abandoned`, `waived` and `satisfied`.
 */
export const cmi5: LearningStandard = {
  ids: ['cmi5'],
  package: { manifest: CMI5_FILE, alone: true, read: readCmi5 },
  launch: { credential: 'fetch', prepare: prepareCmi5 },
  runtime: { routes: () => [{ plugin: cmi5FetchRoutes, prefix: '/api/v1/learn/cmi5' }], lrs: cmi5Lrs },
  outcome: {
    // A session the AU did not terminate is `abandoned`, with its duration (cmi5 §9.3.6); the AU's statements decided the rest.
    async sessionEnds(_trx, _deps, _source, run, session, end) {
      if (end.endedBy === 'terminated') return { session, statements: [] }
      const at = statementContext(run, session.id, run.aus[session.au_index])
      return { session, statements: [lmsStatement(at, 'abandoned', { id: session.activity_id }, { result: durationResult(end.seconds) })] }
    },
    satisfied: (config, run, sessionId, newly) => satisfiedStatements(config.publicUrl, run, sessionId, newly),
    waived: (config, run, sessionId, waiver) => [
      lmsStatement(
        statementContext(run, sessionId, run.aus[waiver.auIndex]),
        'waived',
        { id: auActivityId(config.publicUrl, run.reg.id, waiver.auIndex) },
        { result: { success: true, completion: true, extensions: { [EXTENSION.reason]: waiver.reason } }, moveOn: true },
      ),
    ],
  },
}
