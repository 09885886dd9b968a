// `npm run circular`'s second half: the structure of src/modules.
// 1. Four wings, each a folder of feature folders, whose imports run one way: a wing imports only the
//    wings below it in WINGS (learning → crew → accounts → platform), never one above.
// 2. No import loops between the feature folders. madge finds file circles; a loop between folders
//    (users → auth → sso → users) can exist without one, and it is what makes a feature impossible to
//    read on its own. Each file edge is folded onto its folders; any folder that can reach itself again
//    fails the check, with one file edge per step.
// 3. Learning standards (learning/standards/<name>, each a folder of its own here) sit on launch and
//    the LRS: no standard imports another, and the LRS (learning/xapi) imports neither launch nor any
//    standard (they reach it through the hooks the wiring registers).
import { readdirSync } from 'node:fs'
import madge from 'madge'

const ROOT = 'src/modules'
/** The wings, lowest first: each may import the ones before it. */
const WINGS = ['platform', 'accounts', 'crew', 'learning']
const graph = (await madge(ROOT, { fileExtensions: ['ts'], tsConfig: 'tsconfig.json' })).obj()

/** The wing of a path relative to ROOT, or null for the wiring (index.ts, types.ts) and code outside it. */
const wingOf = (path) => (!path.startsWith('..') && WINGS.includes(path.split('/')[0]) && path.includes('/') ? path.split('/')[0] : null)
/** Folders whose subfolders are folders of their own (learning/standards/cmi5, learning/standards/scorm). */
const NESTED = ['learning/standards']
/** The feature folder (wing/feature, or nested/name) of a path relative to ROOT, or null for a wing's own files and code outside the wings. */
function folderOf(path) {
  const parts = path.split('/')
  if (!wingOf(path) || parts.length <= 2) return null
  return NESTED.includes(parts.slice(0, 2).join('/')) && parts.length > 3 ? parts.slice(0, 3).join('/') : parts.slice(0, 2).join('/')
}
/** Imports no file may make: [from folder, to folder or its subfolders, why]. */
const FORBIDDEN = [
  ['learning/xapi', 'learning/launch', 'the LRS knows no launch session: launch registers its hooks'],
  ['learning/xapi', 'learning/standards', 'the LRS knows no learning standard'],
]
/** Whether a folder is `folder` or one of its subfolders. */
const within = (path, folder) => path === folder || path.startsWith(`${folder}/`)

const strays = readdirSync(ROOT, { withFileTypes: true }).filter((entry) => entry.isDirectory() && !WINGS.includes(entry.name))
for (const stray of strays) console.error(`A folder outside the wings: ${ROOT}/${stray.name} (move it into one of ${WINGS.join(', ')})`)

/** Imports from a wing into one above it. */
const upward = []
/** Imports FORBIDDEN names, and imports from one standard into another. */
const barred = []
/** folder → folder it imports → one file edge that shows it. */
const edges = new Map()
for (const [file, imports] of Object.entries(graph)) {
  for (const imported of imports) {
    const edge = `${ROOT}/${file} → ${ROOT}/${imported}`
    const [fromWing, toWing] = [wingOf(file), wingOf(imported)]
    if (fromWing && toWing && WINGS.indexOf(toWing) > WINGS.indexOf(fromWing)) upward.push(`${fromWing} → ${toWing}: ${edge}`)
    const [from, to] = [folderOf(file), folderOf(imported)]
    if (!from || !to || from === to) continue
    for (const [source, target, why] of FORBIDDEN) if (within(from, source) && within(to, target)) barred.push(`${edge} (${why})`)
    if (NESTED.some((nest) => from.startsWith(`${nest}/`) && to.startsWith(`${nest}/`))) barred.push(`${edge} (a standard imports no other)`)
    if (!edges.has(from)) edges.set(from, new Map())
    if (!edges.get(from).has(to)) edges.get(from).set(to, edge)
  }
}
for (const line of upward) console.error(`An import against the wings' direction (${WINGS.toReversed().join(' → ')}), ${line}`)
for (const line of barred) console.error(`A barred import: ${line}`)

/** A path of folders from `start` back to itself, or null. Breadth first, so the shortest loop is shown. */
function loopFrom(start) {
  const queue = [[start]]
  const seen = new Set()
  while (queue.length > 0) {
    const path = queue.shift()
    for (const next of edges.get(path.at(-1))?.keys() ?? []) {
      if (next === start) return [...path, start]
      if (!seen.has(next)) {
        seen.add(next)
        queue.push([...path, next])
      }
    }
  }
  return null
}

const loops = new Map()
for (const folder of [...edges.keys()].sort()) {
  const loop = loopFrom(folder)
  if (loop) loops.set([...loop.slice(0, -1)].sort().join(','), loop)
}
for (const loop of loops.values()) {
  console.error(`Import loop between module folders: ${loop.join(' → ')}`)
  for (let i = 0; i < loop.length - 1; i++) console.error(`  ${edges.get(loop[i]).get(loop[i + 1])}`)
}
if (strays.length > 0 || upward.length > 0 || barred.length > 0 || loops.size > 0) process.exit(1)
const folders = new Set(Object.keys(graph).map(folderOf).filter(Boolean))
console.log(
  `✔ Imports run one way between the ${WINGS.length} wings (${WINGS.toReversed().join(' → ')}); no import loop between the ${folders.size} module folders; the LRS imports neither launch nor a standard, and no standard another`,
)
