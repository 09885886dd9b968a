// `npm run circular`'s second half: no import loops between the feature folders of src/modules.
// madge finds file circles; a loop between folders (users → auth → sso → users) can exist without
// one, and it is what makes a feature impossible to read on its own. Each file edge is folded onto
// its folders; any folder that can reach itself again fails the check, with one file edge per step.
import madge from 'madge'

const ROOT = 'src/modules'
const graph = (await madge(ROOT, { fileExtensions: ['ts'], tsConfig: 'tsconfig.json' })).obj()

/** The feature folder of a path relative to ROOT, or null for the folder's own files (index.ts, types.ts) and code outside it. */
const folderOf = (path) => (path.includes('/') && !path.startsWith('..') ? path.split('/')[0] : null)

/** folder → folder it imports → one file edge that shows it. */
const edges = new Map()
for (const [file, imports] of Object.entries(graph)) {
  const from = folderOf(file)
  for (const imported of imports) {
    const to = folderOf(imported)
    if (!from || !to || from === to) continue
    if (!edges.has(from)) edges.set(from, new Map())
    if (!edges.get(from).has(to)) edges.get(from).set(to, `${ROOT}/${file} → ${ROOT}/${imported}`)
  }
}

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
if (loops.size > 0) process.exit(1)
const folders = new Set(Object.keys(graph).map(folderOf).filter(Boolean))
console.log(`✔ No import loop between the ${folders.size} module folders`)
