import type { ActivityNode } from '../../packages/package-model.js'
import { attr, element, elements, textOf, type XmlNode } from '../../packages/xml.js'

// What a SCORM 2004 manifest's sequencing (imsss:, adlseq:) says of an item. The XML reader drops namespace
// prefixes, so imsss:objectives and adlseq:objectives are both `objectives`: the first holds a
// primaryObjective, the second only objectives that repeat its ids.

/** The manifest's sequencing collection (imsss:sequencingCollection) by ID, for an item's `IDRef`. */
export function sequencingCollection(manifest: XmlNode): Map<string, XmlNode> {
  const collection = element(manifest, 'sequencingCollection') ?? {}
  return new Map(elements(collection, 'sequencing').map((s) => [attr(s, 'ID') ?? '', s]))
}

/** The item's sequencing, with the collection's sequencing it refers to (its own elements come first). */
export function sequencingOf(item: XmlNode, collection: Map<string, XmlNode>): XmlNode[] {
  const own = element(item, 'sequencing')
  if (!own) return []
  const ref = attr(own, 'IDRef')
  const shared = ref === undefined ? undefined : collection.get(ref)
  return shared ? [own, shared] : [own]
}

/** The item's objective ids (primary first, each once) from the first sequencing that declares objectives. */
export function objectiveIds(sequencing: XmlNode[]): string[] {
  const holder = sequencing.map((s) => element(s, 'objectives')).find((o) => o !== undefined)
  if (!holder) return []
  const ids = [...elements(holder, 'primaryObjective'), ...elements(holder, 'objective')]
    .map((objective) => attr(objective, 'objectiveID'))
    .filter((id): id is string => Boolean(id))
  return [...new Set(ids)]
}

type Json = Record<string, unknown>

const bool = (node: XmlNode, name: string): boolean | undefined => {
  const value = attr(node, name)
  return value === undefined ? undefined : value === 'true'
}
const number = (node: XmlNode, name: string): number | undefined => {
  const value = attr(node, name)
  return value === undefined || !Number.isFinite(Number(value)) ? undefined : Number(value)
}
/** An object of the attributes given, each read by its reader, without the absent ones. */
const attrs = (node: XmlNode | undefined, read: Record<string, (node: XmlNode, name: string) => unknown>): Json =>
  node
    ? Object.fromEntries(
        Object.entries(read).flatMap(([name, reader]) => (reader(node, name) === undefined ? [] : [[name, reader(node, name)]])),
      )
    : {}
const text = (node: XmlNode, name: string) => attr(node, name)

const CONTROL_MODE = {
  choice: bool,
  choiceExit: bool,
  flow: bool,
  forwardOnly: bool,
  useCurrentAttemptObjectiveInfo: bool,
  useCurrentAttemptProgressInfo: bool,
}
const ROLLUP = { rollupObjectiveSatisfied: bool, rollupProgressCompletion: bool, objectiveMeasureWeight: number }
const DELIVERY = { tracked: bool, completionSetByContent: bool, objectiveSetByContent: bool }
const RANDOMIZATION = {
  selectionTiming: text,
  selectCount: number,
  randomizeChildren: bool,
  randomizationTiming: text,
  reorderChildren: bool,
}
const CONSIDERATIONS = {
  requiredForSatisfied: text,
  requiredForNotSatisfied: text,
  requiredForCompleted: text,
  requiredForIncomplete: text,
  measureSatisfactionIfActive: bool,
}
const MAP_INFO = {
  targetObjectiveID: text,
  readSatisfiedStatus: bool,
  readNormalizedMeasure: bool,
  writeSatisfiedStatus: bool,
  writeNormalizedMeasure: bool,
  readCompletionStatus: bool,
  writeCompletionStatus: bool,
  readProgressMeasure: bool,
  writeProgressMeasure: bool,
  readRawScore: bool,
  writeRawScore: bool,
  readMinScore: bool,
  writeMinScore: bool,
  readMaxScore: bool,
  writeMaxScore: bool,
  updateAttemptData: bool,
}

/** A sequencing rule: its action, how its conditions combine, and each condition ("noOp" is no operator). */
function rule(node: XmlNode): Json {
  const conditions = element(node, 'ruleConditions') ?? {}
  return {
    action: attr(element(node, 'ruleAction') ?? {}, 'action'),
    conditionCombination: attr(conditions, 'conditionCombination') ?? 'all',
    conditions: elements(conditions, 'ruleCondition').map((c) => ({
      condition: attr(c, 'condition'),
      ...(attr(c, 'operator') === 'not' && { operator: 'not' }),
      ...(attr(c, 'referencedObjective') && { referencedObjective: attr(c, 'referencedObjective') }),
      ...(number(c, 'measureThreshold') !== undefined && { parameters: { threshold: number(c, 'measureThreshold') } }),
    })),
  }
}

function rollupRule(node: XmlNode): Json {
  const conditions = element(node, 'rollupConditions') ?? {}
  return {
    action: attr(element(node, 'rollupAction') ?? {}, 'action'),
    consideration: attr(node, 'childActivitySet') ?? 'all',
    ...attrs(node, { minimumCount: number, minimumPercent: number }),
    conditionCombination: attr(conditions, 'conditionCombination') ?? 'any',
    conditions: elements(conditions, 'rollupCondition').map((c) => ({
      condition: attr(c, 'condition'),
      ...(attr(c, 'operator') === 'not' && { operator: 'not' }),
    })),
  }
}

/** imsss objectives with the adlseq map infos (4th Edition: completion, progress and score) of the same ids added. */
function objectives(sequencing: XmlNode): Json {
  const [imsss, adlseq] = elements(sequencing, 'objectives')
  if (!imsss) return {}
  const extra = new Map(elements(adlseq ?? {}, 'objective').map((o) => [attr(o, 'objectiveID'), elements(o, 'mapInfo')]))
  const objective = (o: XmlNode, isPrimary: boolean) => ({
    objectiveID: attr(o, 'objectiveID') ?? '',
    isPrimary,
    ...attrs(o, { satisfiedByMeasure: bool }),
    ...(element(o, 'minNormalizedMeasure') && { minNormalizedMeasure: Number(textOf(element(o, 'minNormalizedMeasure'))) }),
    mapInfo: [...elements(o, 'mapInfo'), ...(extra.get(attr(o, 'objectiveID')) ?? [])].map((m) => attrs(m, MAP_INFO)),
  })
  const primary = element(imsss, 'primaryObjective')
  return {
    ...(primary && { primaryObjective: objective(primary, true) }),
    objectives: elements(imsss, 'objective').map((o) => objective(o, false)),
  }
}

/** One <imsss:sequencing> element as scorm-again's activity settings (only what it declares). */
function sequencingSettings(s: XmlNode): Json {
  const rules = element(s, 'sequencingRules')
  const limits = element(s, 'limitConditions')
  const rollup = element(s, 'rollupRules')
  const byKind = (kind: string) => elements(rules ?? {}, kind).map(rule)
  const controls = {
    ...attrs(element(s, 'controlMode'), CONTROL_MODE),
    ...attrs(rollup, ROLLUP),
    ...attrs(element(s, 'randomizationControls'), RANDOMIZATION),
    ...attrs(element(s, 'constrainedChoiceConsiderations'), { preventActivation: bool, constrainChoice: bool }),
  }
  return {
    ...(Object.keys(controls).length > 0 && { sequencingControls: controls }),
    ...(rules && {
      sequencingRules: {
        preConditionRules: byKind('preConditionRule'),
        exitConditionRules: byKind('exitConditionRule'),
        postConditionRules: byKind('postConditionRule'),
      },
    }),
    ...(limits && attrs(limits, { attemptLimit: number, attemptAbsoluteDurationLimit: text })),
    ...(rollup && elements(rollup, 'rollupRule').length > 0 && { rollupRules: { rules: elements(rollup, 'rollupRule').map(rollupRule) } }),
    ...(element(s, 'deliveryControls') && { deliveryControls: attrs(element(s, 'deliveryControls'), DELIVERY) }),
    ...(element(s, 'rollupConsiderations') && { rollupConsiderations: attrs(element(s, 'rollupConsiderations'), CONSIDERATIONS) }),
    ...objectives(s),
  }
}

/** The item's sequencing: the collection's it refers to, overridden by its own (controls merged). */
function merged(sequencing: XmlNode[]): Json {
  const [own, shared] = sequencing.map(sequencingSettings)
  if (!own) return {}
  if (!shared) return own
  return { ...shared, ...own, sequencingControls: { ...(shared.sequencingControls as Json), ...(own.sequencingControls as Json) } }
}

/**
 * The organization as scorm-again's activity tree (`sequencing.activityTree`): the organization is the
 * root, each item an activity with its sequencing (the collection's it refers to, then its own), its
 * completion threshold, shared data maps (adlcp:data) and hidden LMS UI (adlnav:presentation).
 */
export function activityTree(organization: XmlNode, collection: Map<string, XmlNode>, title: string): ActivityNode {
  const node = (item: XmlNode, isRoot: boolean): ActivityNode => {
    const items = elements(item, 'item')
    const threshold = element(item, 'completionThreshold')
    const hidden = elements(element(element(item, 'presentation') ?? {}, 'navigationInterface') ?? {}, 'hideLMSUI').map(textOf)
    const maps = elements(element(item, 'data') ?? {}, 'map').map((m) =>
      attrs(m, { targetID: text, readSharedData: bool, writeSharedData: bool }),
    )
    return {
      id: attr(item, 'identifier') ?? '',
      title: isRoot ? title : textOf(element(item, 'title')),
      ...(attr(item, 'isvisible') === 'false' && { isVisible: false }),
      ...merged(sequencingOf(item, collection)),
      ...(threshold && {
        completionThreshold: attrs(threshold, { completedByMeasure: bool, minProgressMeasure: number, progressWeight: number }),
      }),
      ...(hidden.length > 0 && { hideLmsUi: hidden }),
      ...(maps.length > 0 && { sharedDataMaps: maps }),
      ...(items.length > 0 && { children: items.map((child) => node(child, false)) }),
    }
  }
  return node(organization, true)
}
