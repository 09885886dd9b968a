import type { ActivityNode } from './package-model.js'
import type { ActivitySummary } from './packages.schemas.js'

// The activity tree as an admin reads it (the structure endpoint): each activity in document order with
// its parent and what its sequencing does, with SCORM's defaults for what the manifest leaves out.

type Json = Record<string, any>
interface Rule {
  action: string
  conditionCombination: string
  conditions: { condition: string; operator?: string; referencedObjective?: string }[]
}

const ruleText = (kind: string, rule: Rule) =>
  `${kind}: ${rule.action} when ${rule.conditionCombination} of ${rule.conditions
    .map((c) => `${c.operator === 'not' ? 'not ' : ''}${c.condition}${c.referencedObjective ? ` (${c.referencedObjective})` : ''}`)
    .join(', ')}`

function summary(node: ActivityNode, parentId: string | null, auIndex: number | null): ActivitySummary {
  const controls: Json = node.sequencingControls ?? {}
  const rules: Json = node.sequencingRules ?? {}
  const objectives = [...(node.primaryObjective ? [node.primaryObjective as Json] : []), ...((node.objectives as Json[] | undefined) ?? [])]
  return {
    id: node.id,
    title: node.title,
    parentId,
    auIndex,
    controls: {
      choice: controls.choice ?? true,
      choiceExit: controls.choiceExit ?? true,
      flow: controls.flow ?? false,
      forwardOnly: controls.forwardOnly ?? false,
    },
    attemptLimit: (node.attemptLimit as number | undefined) ?? null,
    rules: [
      ...((rules.preConditionRules ?? []) as Rule[]).map((r) => ruleText('pre', r)),
      ...((rules.exitConditionRules ?? []) as Rule[]).map((r) => ruleText('exit', r)),
      ...((rules.postConditionRules ?? []) as Rule[]).map((r) => ruleText('post', r)),
    ],
    objectives: objectives.map((o) => ({
      id: o.objectiveID,
      primary: o.isPrimary === true,
      globals: ((o.mapInfo ?? []) as Json[]).map((m) => m.targetObjectiveID),
    })),
    rollup: {
      objectiveSatisfied: controls.rollupObjectiveSatisfied ?? true,
      progressCompletion: controls.rollupProgressCompletion ?? true,
      rules: (((node.rollupRules as Json | undefined)?.rules ?? []) as Json[]).map(
        (r) =>
          `${r.action} when ${r.consideration} children ${r.conditionCombination} of ${r.conditions.map((c: Json) => `${c.operator === 'not' ? 'not ' : ''}${c.condition}`).join(', ')}`,
      ),
    },
  }
}

/** The tree's activities in document order, each launchable one with its AU's index (by the item's identifier). */
export function activitySummaries(tree: ActivityNode, auIndexes: ReadonlyMap<string, number>): ActivitySummary[] {
  const list: ActivitySummary[] = []
  const walk = (node: ActivityNode, parentId: string | null) => {
    list.push(summary(node, parentId, parentId === null ? null : (auIndexes.get(node.id) ?? null)))
    for (const child of node.children ?? []) walk(child, node.id)
  }
  walk(tree, null)
  return list
}
