import { contentPaths } from '../../content/content.paths.js'
import { type LearningStandard, withStandards } from '../../launch/standard.js'
import { scormRoutes } from './scorm.routes.js'
import { readScorm, SCORM_FILE } from './scorm-manifest.js'
import { judgeScormSession } from './scorm-results.js'

/**
 * SCORM 1.2 and 2004 (DECISIONS §13.4–13.7): a manifest; the player page on the content origin holding
 * the session's credential from the launch; the player's runtime and commits; the SCO judged from the
 * state its session ends in. The LMS writes the session's statements itself; it has no `waived` or
 * `satisfied` of SCORM's to write.
 */
export const scorm: LearningStandard = {
  ids: ['scorm12', 'scorm2004'],
  package: { manifest: SCORM_FILE, alone: false, read: async (text, files) => readScorm(text, files ?? new Set()) },
  launch: {
    credential: 'launch',
    prepare: async (_trx, { config }, run, au, step) =>
      contentPaths(config).player(step.grant, au.url, {
        sessionId: step.sessionId,
        secret: step.secret,
        standard: String(run.reg.standard),
        endpoint: config.publicUrl,
      }),
  },
  runtime: { routes: (standards) => [{ plugin: withStandards(scormRoutes, standards), prefix: '/api/v1/learn/scorm' }] },
  outcome: {
    // A session that ends abandoned (or expires) is judged from its last commit; a terminated one by its final commit.
    sessionEnds: (trx, deps, source, run, session, end) =>
      end.endedBy === 'abandoned' ? judgeScormSession(trx, deps, source, run, session) : Promise.resolve({ session, statements: [] }),
    satisfied: () => [],
    waived: () => [],
  },
}
