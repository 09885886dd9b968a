import { describe, expect, it } from 'vitest'
import { useImportApp } from '../../../../fixtures/import-app.js'
import { importPackage, zipOf } from '../../../../fixtures/packages.js'
import { enroll } from '../../../../fixtures/registrations.js'
import { scormPlayer } from '../../../../fixtures/scorm.js'
import { manifest2004 } from '../../../../fixtures/scorm-manifests.js'

// DECISIONS §13.6: a 2004 item may launch an asset, which counts completed when visited; a SCO's runtime
// starts with the manifest's objectives, so a SCO that sets an objective by id finds it.
const app = useImportApp()

const PAGE = '<p>page</p>'

const objectives = (primary: string, ...others: string[]) => `<imsss:sequencing IDRef="shared">
  <imsss:objectives><imsss:primaryObjective objectiveID="${primary}"/>${others.map((id) => `<imsss:objective objectiveID="${id}"/>`).join('')}</imsss:objectives>
  <adlseq:objectives><adlseq:objective objectiveID="${primary}"><adlseq:mapInfo targetObjectiveID="g.${primary}" writeCompletionStatus="true"/></adlseq:objective></adlseq:objectives>
</imsss:sequencing>`

async function imported(files: Record<string, string>) {
  const job = await importPackage(app.t.app, app.org.admin.api, await zipOf(files))
  expect(job).toMatchObject({ status: 'complete', standard: 'scorm2004', errors: [] })
  return job.courseId as string
}

async function runtimeOf(courseId: string) {
  const player = scormPlayer(app.t)
  const { registrationId } = await enroll(app.t.database.db, app.org.id, app.org.crew.id, { courseId })
  const s = await player.launch(app.org.crew, registrationId)
  const runtime = await player.runtime(s.session, s.auth)
  expect(runtime.statusCode).toBe(200)
  return { player, registrationId, s, runtime: runtime.json() }
}

describe('asset items', () => {
  it('an organization of assets only imports, each asset launchable, and a visited asset counts completed', async () => {
    const manifest = manifest2004([
      { id: 'intro', href: 'intro.html', asset: true },
      { id: 'reading', href: 'reading.html', asset: true },
    ])
    const courseId = await imported({ 'imsmanifest.xml': manifest, 'intro.html': PAGE, 'reading.html': PAGE })
    const structure = await app.org.admin.api.get(`/api/v1/learn/courses/${courseId}/structure`)
    expect(structure.body.aus.map((au: { id: string; url: string }) => [au.id, au.url])).toEqual([
      ['intro', 'intro.html'],
      ['reading', 'reading.html'],
    ])
    const { player, registrationId, s, runtime } = await runtimeOf(courseId)
    expect(runtime).toMatchObject({ standard: 'scorm2004', asset: true })
    expect(runtime.cmi.objectives).toBeUndefined()
    // What the player commits for a visited asset.
    expect(await player.finish(s, { completion_status: 'completed' })).toEqual({ result: 'true' })
    const registration = await app.org.crew.api.get(`/api/v1/learn/registrations/${registrationId}`)
    expect(registration.body).toMatchObject({ status: 'in_progress', attempt_count: 1 })
    const states = await app.t.database.db
      .selectFrom('registration_aus')
      .selectAll()
      .where('registration_id', '=', registrationId)
      .execute()
    expect(states.map((row) => [row.au_index, row.completed])).toEqual([[0, true]])
  })

  it('an organization that launches nothing is still refused', async () => {
    const manifest = manifest2004([{ id: 'empty', title: 'Nothing' }])
    const job = await importPackage(app.t.app, app.org.admin.api, await zipOf({ 'imsmanifest.xml': manifest, 'a.html': PAGE }))
    expect(job).toMatchObject({
      status: 'failed',
      errors: [{ code: 'no_sco', message: 'The default organization launches no SCO or asset', path: 'imsmanifest.xml/organization' }],
    })
  })
})

describe('manifest objectives', () => {
  it("the runtime starts with the item's objective ids, primary first, each once; a SCO without objectives gets none", async () => {
    const manifest = manifest2004(
      [
        { id: 'lesson', href: 'lesson.html', sequencing: objectives('lesson_done', 'knots', 'lights') },
        { id: 'plain', href: 'plain.html' },
      ],
      { collection: '<imsss:sequencing ID="shared"><imsss:deliveryControls objectiveSetByContent="true"/></imsss:sequencing>' },
    )
    const courseId = await imported({ 'imsmanifest.xml': manifest, 'lesson.html': PAGE, 'plain.html': PAGE })
    const { runtime } = await runtimeOf(courseId)
    expect(runtime.asset).toBe(false)
    expect(runtime.cmi.objectives).toEqual({ 0: { id: 'lesson_done' }, 1: { id: 'knots' }, 2: { id: 'lights' } })
    const aus = await app.t.database.db
      .selectFrom('course_aus as a')
      .innerJoin('courses as c', 'c.package_id', 'a.package_id')
      .select(['a.au_index', 'a.objective_ids', 'a.scorm_asset'])
      .where('c.id', '=', courseId)
      .orderBy('a.au_index')
      .execute()
    expect(aus).toEqual([
      { au_index: 0, objective_ids: ['lesson_done', 'knots', 'lights'], scorm_asset: false },
      { au_index: 1, objective_ids: [], scorm_asset: false },
    ])
  })

  it("an item's objectives come from the sequencing collection it refers to when it declares none", async () => {
    const manifest = manifest2004([{ id: 'lesson', href: 'lesson.html', sequencing: '<imsss:sequencing IDRef="shared"/>' }], {
      collection:
        '<imsss:sequencing ID="shared"><imsss:objectives><imsss:primaryObjective objectiveID="from_collection"/></imsss:objectives></imsss:sequencing>',
    })
    const courseId = await imported({ 'imsmanifest.xml': manifest, 'lesson.html': PAGE })
    const { runtime } = await runtimeOf(courseId)
    expect(runtime.cmi.objectives).toEqual({ 0: { id: 'from_collection' } })
  })
})
