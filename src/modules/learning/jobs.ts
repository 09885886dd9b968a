import type { Config } from '../../config.js'
import { todayUtc } from '../../lib/dates.js'
import type { Jobs } from '../../lib/jobs.js'
import { FLEET_JOB_EXPIRE_SECONDS, type JobDeps } from '../platform/jobs/jobs.js'
import { runSweep, type Sweep } from '../platform/jobs/sweeps.js'
import { expiredSessions } from './launch/sessions.queries.js'
import { abandonExpired } from './launch/sessions.service.js'
import { IMPORT_QUEUE, importHandler } from './packages/packages.import.js'
import { PACKAGE_READERS, STANDARDS } from './standards/index.js'

// A course import streams up to COURSE_PACKAGE_MAX_BYTES (1 GiB) into storage; the periodic run picks up
// an import whose request to run was lost (queued while the queue could not be reached).
const IMPORT_EXPIRE_SECONDS = 3600
const IMPORT_EVERY_SECONDS = 300
const SESSION_SWEEP_EVERY_SECONDS = 60

type Expired = Awaited<ReturnType<typeof expiredSessions>>[number]

/** Each batch is abandoned before the next is read: the next batch is again the oldest still open. */
const sessionSweep = (config: Config): Sweep<Expired> => ({
  job: 'launch-session-sweep',
  passes: [
    async (db, { orgId, limit }) => {
      const keys = await expiredSessions(db, limit, orgId)
      return { keys, after: keys.length === limit ? 'more' : null }
    },
  ],
  apply: async (db, _orgId, sessions) => {
    await abandonExpired({ db, config, standards: STANDARDS }, sessions)
    return sessions.length
  },
})

/** The learning wing's background jobs: course imports and the sweep of abandoned launch sessions. */
export function defineLearningJobs(jobs: Jobs, { db, config, storage, log }: JobDeps): void {
  jobs.define({
    name: IMPORT_QUEUE,
    // One run at a time, over every instance, works every running import; a request made meanwhile queues one more run.
    policy: 'stately',
    handler: importHandler({ db, storage, config, log, readers: PACKAGE_READERS }),
    everySeconds: IMPORT_EVERY_SECONDS,
    expireInSeconds: IMPORT_EXPIRE_SECONDS,
  })
  const sessions = sessionSweep(config)
  jobs.define({
    name: 'launch-session-sweep',
    policy: 'short',
    // Learners close windows without terminating: a session past its expiry is abandoned (DECISIONS §13.4),
    // per organization, a batch at a time, oldest first.
    handler: async () => void (await runSweep(db, sessions, todayUtc())),
    everySeconds: SESSION_SWEEP_EVERY_SECONDS,
    expireInSeconds: FLEET_JOB_EXPIRE_SECONDS,
  })
}
