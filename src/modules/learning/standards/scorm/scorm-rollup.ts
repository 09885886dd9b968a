import type { ActivityNode } from '../../packages/package-model.js'

/** What the LMS knows of one SCO from its last judged session: completed, and satisfied (null: unknown). */
export interface LeafOutcome {
  completed: boolean
  satisfied: boolean | null
}

/** The root activity's rolled-up status: satisfied (null: unknown) and completed. The course passes when it is satisfied, or completed with satisfaction unknown. */
export interface RolledUp {
  satisfied: boolean | null
  completed: boolean
}

// scorm-again's activity, as far as rollup reads and writes it.
interface Activity {
  id: string
  children: Activity[]
  attemptCount: number
  completionStatus: string
  successStatus: string
  attemptProgressStatus: boolean
  attemptCompletionStatus: boolean
  objectiveSatisfiedStatus: boolean
  objectiveSatisfiedStatusKnown: boolean
}
interface Sequencing {
  getSequencingState(): { rootActivity: Activity | null }
  rollupProcess: { overallRollupProcess(activity: Activity): unknown }
}

/**
 * The course's result by its own rollup rules (DECISIONS §13.6), computed here from each SCO's judged
 * outcome rather than taken from the player: scorm-again's rollup process (the SN book's Overall Rollup
 * Process) runs on the package's activity tree with the leaves set as their sessions ended, so a learner
 * cannot post a passed root. Without rollup rules SCORM's defaults apply: every tracked child satisfied.
 */
export async function rolledUp(tree: ActivityNode, leaves: ReadonlyMap<string, LeafOutcome>): Promise<RolledUp> {
  const { Scorm2004API } = await import('scorm-again')
  const api = new Scorm2004API({ logLevel: 5, sequencing: { activityTree: tree as never } })
  const sequencing = api.getSequencingService() as unknown as Sequencing
  const root = sequencing.getSequencingState().rootActivity
  if (!root) return { satisfied: null, completed: false }
  const activities: Activity[] = []
  const walk = (activity: Activity) => {
    activities.push(activity)
    activity.children.forEach(walk)
  }
  walk(root)
  for (const activity of activities) {
    const leaf = activity.children.length === 0 ? leaves.get(activity.id) : undefined
    if (!leaf) continue
    activity.attemptCount = 1
    activity.completionStatus = leaf.completed ? 'completed' : 'incomplete'
    activity.attemptProgressStatus = true
    activity.attemptCompletionStatus = leaf.completed
    if (leaf.satisfied !== null) {
      activity.successStatus = leaf.satisfied ? 'passed' : 'failed'
      activity.objectiveSatisfiedStatusKnown = true
      activity.objectiveSatisfiedStatus = leaf.satisfied
    }
    sequencing.rollupProcess.overallRollupProcess(activity)
  }
  return {
    satisfied: root.objectiveSatisfiedStatusKnown ? root.objectiveSatisfiedStatus : null,
    completed: root.completionStatus === 'completed',
  }
}
