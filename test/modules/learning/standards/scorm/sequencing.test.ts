import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Scorm2004API } from 'scorm-again'
import { beforeAll, describe, expect, it } from 'vitest'
import { useImportApp } from '../../../../fixtures/import-app.js'
import { importPackage, zipOf } from '../../../../fixtures/packages.js'
import { type ManifestItem, manifest2004 } from '../../../../fixtures/scorm-manifests.js'

// DECISIONS §13.6: a SCORM 2004 package's organization is imported as the activity tree scorm-again's
// sequencing runs (controls, rules, limit conditions, objectives and their maps, rollup). Each package
// here is imported through the API, and the tree the import stored is played by scorm-again's engine
// as the player does: the rule must do what its manifest says.
const app = useImportApp()

const GOLF = join(import.meta.dirname, '../../../../../../shared/fixtures/scorm/SequencingPostTestRollup4thEd_SCORM20044thEdition.zip')
const PAGE = '<p>sco</p>'

async function imported(zip: Buffer) {
  const job = await importPackage(app.t.app, app.org.admin.api, zip)
  expect(job).toMatchObject({ status: 'complete', standard: 'scorm2004', errors: [] })
  const tree = await app.t.database.db
    .selectFrom('course_packages')
    .select('activity_tree')
    .where('id', '=', job.id)
    .executeTakeFirstOrThrow()
  const structure = await app.org.admin.api.get(`/api/v1/learn/courses/${job.courseId}/structure`)
  expect(structure.status).toBe(200)
  return { tree: tree.activity_tree as Record<string, unknown>, structure: structure.body }
}

const built = (items: ManifestItem[], options: Parameters<typeof manifest2004>[1] = {}) =>
  zipOf({ 'imsmanifest.xml': manifest2004(items, options), ...Object.fromEntries(items.flatMap((i) => (i.href ? [[i.href, PAGE]] : []))) })

/** scorm-again's engine on the stored tree, as the player runs it: what it delivers and which navigation it allows. */
function engine(tree: Record<string, unknown>) {
  const delivered: string[] = []
  let validity = { continue: false, previous: false, choice: {} as Record<string, string> }
  const api = new Scorm2004API({
    logLevel: 5,
    sequencing: {
      activityTree: tree as never,
      eventListeners: {
        onActivityDelivery: (activity: { id: string }) => delivered.push(activity.id),
        onNavigationValidityUpdate: (update: typeof validity) => {
          validity = update
        },
      },
    },
  })
  const root = () => (api as any)._sequencing.activityTree.root
  /** The delivered SCO runs: it sets its cmi, then asks for the next navigation request as it terminates. */
  const sco = (cmi: Record<string, string>, request?: string) => {
    expect(api.Initialize('')).toBe('true')
    for (const [element, value] of Object.entries(cmi)) expect(api.SetValue(element, value)).toBe('true')
    if (request) api.SetValue('adl.nav.request', request)
    expect(api.Terminate('')).toBe('true')
    api.reset()
  }
  return {
    api,
    delivered,
    validity: () => validity,
    root,
    sco,
    navigate: (request: string, target?: string) => api.processNavigationRequest(request, target),
  }
}

describe('the Golf "post test rollup" example (4th Edition)', () => {
  let tree: Record<string, unknown>
  beforeAll(async () => {
    const golf = await imported(await readFile(GOLF))
    tree = golf.tree
    const byId = new Map(golf.structure.activities.map((a: { id: string }) => [a.id, a]))
    expect(golf.structure.activities.map((a: { id: string; auIndex: number | null }) => [a.id, a.auIndex])).toEqual([
      ['golf_sample_default_org', null],
      ['playing_item', 0],
      ['etuqiette_item', 1],
      ['handicapping_item', 2],
      ['havingfun_item', 3],
      ['assessment_item', 4],
    ])
    expect(byId.get('golf_sample_default_org')).toMatchObject({
      parentId: null,
      controls: { choice: true, flow: true, forwardOnly: false },
    })
    expect(byId.get('etuqiette_item')).toEqual({
      id: 'etuqiette_item',
      title: 'Etiquette',
      parentId: 'golf_sample_default_org',
      auIndex: 1,
      controls: { choice: true, choiceExit: true, flow: false, forwardOnly: false },
      attemptLimit: null,
      rules: ['pre: disabled when any of not completed (previous_sco_completed), not activityProgressKnown (previous_sco_completed)'],
      objectives: [
        { id: 'ettiquette_completed', primary: true, globals: ['com.scorm.golfsamples.sequencing.forcedsequential.ettiquette_completed'] },
        { id: 'previous_sco_completed', primary: false, globals: ['com.scorm.golfsamples.sequencing.forcedsequential.playing_completed'] },
      ],
      rollup: { objectiveSatisfied: false, progressCompletion: false, rules: [] },
    })
  })

  it('starts at the first SCO, the later ones disabled and the post-test hidden until their prerequisites are completed', () => {
    const golf = engine(tree)
    golf.navigate('start')
    expect(golf.delivered).toEqual(['playing_item'])
    expect(golf.validity().choice).toMatchObject({ etuqiette_item: 'false', handicapping_item: 'false', assessment_item: 'false' })
    golf.sco({ 'cmi.completion_status': 'completed' }, 'continue')
    expect(golf.delivered).toEqual(['playing_item', 'etuqiette_item'])
    expect(golf.validity().choice).toMatchObject({ playing_item: 'true', handicapping_item: 'false' })
  })

  for (const [success, expected] of [
    ['passed', { completionStatus: 'completed', successStatus: 'passed' }],
    ['failed', { completionStatus: 'completed', successStatus: 'failed' }],
  ] as const) {
    it(`skipping to the post-test (jump) and ${success === 'passed' ? 'passing' : 'failing'} it rolls the course up to ${success}`, () => {
      const golf = engine(tree)
      golf.navigate('start')
      golf.sco({}, '{target=assessment_item}jump')
      expect(golf.delivered).toEqual(['playing_item', 'assessment_item'])
      golf.sco(
        { 'cmi.completion_status': 'completed', 'cmi.success_status': success, 'cmi.score.scaled': success === 'passed' ? '0.9' : '0.3' },
        'exitAll',
      )
      expect(golf.root()).toMatchObject(expected)
    })
  }

  it('suspends all and resumes at the activity it left, from the saved state', () => {
    const golf = engine(tree)
    golf.navigate('start')
    golf.sco({ 'cmi.completion_status': 'completed' }, 'continue')
    golf.sco({ 'cmi.exit': 'suspend' }, 'suspendAll')
    const again = engine(tree)
    expect(again.api.deserializeSequencingState(golf.api.serializeSequencingState())).toBe(true)
    again.navigate('resumeAll')
    expect(again.delivered).toEqual(['etuqiette_item'])
  })
})

describe('sequencing rules of small packages', () => {
  const three = (sequencing: Partial<Record<'a' | 'b' | 'c', string>> = {}): ManifestItem[] =>
    (['a', 'b', 'c'] as const).map((id) => ({ id, href: `${id}.html`, sequencing: sequencing[id] }))

  it('choice off: no activity may be chosen, flow moves on', async () => {
    const { tree, structure } = await imported(
      await built(three(), { rootSequencing: '<imsss:sequencing><imsss:controlMode choice="false" flow="true"/></imsss:sequencing>' }),
    )
    expect(structure.activities[0].controls).toMatchObject({ choice: false, flow: true })
    const run = engine(tree)
    run.navigate('start')
    expect(run.validity().choice).toMatchObject({ a: 'false', b: 'false', c: 'false' })
    expect(run.navigate('choice', 'c')).toBe(false)
    run.sco({}, 'continue')
    expect(run.delivered).toEqual(['a', 'b'])
  })

  it('forwardOnly: previous is refused', async () => {
    const { tree } = await imported(
      await built(three(), {
        rootSequencing: '<imsss:sequencing><imsss:controlMode choice="false" flow="true" forwardOnly="true"/></imsss:sequencing>',
      }),
    )
    const run = engine(tree)
    run.navigate('start')
    run.sco({}, 'continue')
    expect(run.validity().previous).toBe(false)
    run.sco({}, 'previous')
    expect(run.delivered).toEqual(['a', 'b'])
  })

  it('a limit condition: an activity with attemptLimit 1 is not delivered a second time', async () => {
    const limited = '<imsss:sequencing><imsss:limitConditions attemptLimit="1"/></imsss:sequencing>'
    const { tree, structure } = await imported(
      await built(three({ a: limited }), {
        rootSequencing: '<imsss:sequencing><imsss:controlMode choice="true" flow="true"/></imsss:sequencing>',
      }),
    )
    expect(structure.activities[1]).toMatchObject({ id: 'a', attemptLimit: 1 })
    const run = engine(tree)
    run.navigate('start')
    run.sco({ 'cmi.completion_status': 'completed' }, 'continue')
    run.sco({}, '{target=a}choice')
    expect(run.delivered).toEqual(['a', 'b'])
  })

  // Rule conditions are three-valued: "not satisfied" of an unknown status is unknown, so the rule also asks "not known".
  it('a precondition that hides: b is hidden from choice until a is satisfied', async () => {
    const hidden = `<imsss:sequencing><imsss:sequencingRules><imsss:preConditionRule>
      <imsss:ruleConditions conditionCombination="any"><imsss:ruleCondition referencedObjective="a_done" operator="not" condition="satisfied"/>
      <imsss:ruleCondition referencedObjective="a_done" operator="not" condition="objectiveStatusKnown"/></imsss:ruleConditions>
      <imsss:ruleAction action="hiddenFromChoice"/></imsss:preConditionRule></imsss:sequencingRules>
      <imsss:objectives><imsss:primaryObjective objectiveID="b_primary"/><imsss:objective objectiveID="a_done"><imsss:mapInfo targetObjectiveID="g.a" readSatisfiedStatus="true"/></imsss:objective></imsss:objectives></imsss:sequencing>`
    const mapsA =
      '<imsss:sequencing><imsss:objectives><imsss:primaryObjective objectiveID="a_primary"><imsss:mapInfo targetObjectiveID="g.a" writeSatisfiedStatus="true"/></imsss:primaryObjective></imsss:objectives></imsss:sequencing>'
    const { tree, structure } = await imported(
      await built(three({ a: mapsA, b: hidden }), {
        rootSequencing: '<imsss:sequencing><imsss:controlMode choice="true" flow="true"/></imsss:sequencing>',
      }),
    )
    expect(structure.activities[2].rules).toEqual([
      'pre: hiddenFromChoice when any of not satisfied (a_done), not objectiveStatusKnown (a_done)',
    ])
    const run = engine(tree)
    run.navigate('start')
    expect(run.validity().choice.b).toBe('false')
    run.sco({ 'cmi.success_status': 'passed', 'cmi.completion_status': 'completed' }, 'continue')
    expect(run.validity().choice.b).toBe('true')
  })

  it('an objective map: a satisfied global objective, written by a and read by c, makes c skip', async () => {
    const writes =
      '<imsss:sequencing><imsss:objectives><imsss:primaryObjective objectiveID="knots"><imsss:mapInfo targetObjectiveID="g.knots" writeSatisfiedStatus="true"/></imsss:primaryObjective></imsss:objectives></imsss:sequencing>'
    const skips = `<imsss:sequencing><imsss:sequencingRules><imsss:preConditionRule>
      <imsss:ruleConditions><imsss:ruleCondition condition="satisfied"/></imsss:ruleConditions><imsss:ruleAction action="skip"/></imsss:preConditionRule></imsss:sequencingRules>
      <imsss:objectives><imsss:primaryObjective objectiveID="knots_again"><imsss:mapInfo targetObjectiveID="g.knots" readSatisfiedStatus="true"/></imsss:primaryObjective></imsss:objectives></imsss:sequencing>`
    const root = '<imsss:sequencing><imsss:controlMode choice="false" flow="true"/></imsss:sequencing>'
    const { tree, structure } = await imported(
      await built([...three({ a: writes, c: skips }), { id: 'd', href: 'd.html' }], { rootSequencing: root }),
    )
    expect(structure.activities[3].objectives).toEqual([{ id: 'knots_again', primary: true, globals: ['g.knots'] }])
    const run = engine(tree)
    run.navigate('start')
    run.sco({ 'cmi.success_status': 'passed', 'cmi.completion_status': 'completed' }, 'continue')
    run.sco({ 'cmi.completion_status': 'completed' }, 'continue')
    expect(run.delivered).toEqual(['a', 'b', 'd'])
  })
})
