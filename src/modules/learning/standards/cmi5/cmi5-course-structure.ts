import { validateXML } from 'xmllint-wasm'
import { type PackageAu, type PackageBlock, PackageErrors, type PackageFiles, type ReadManifest } from '../../packages/package-model.js'
import { resolvesInPackage } from '../../packages/package-urls.js'
import { LAUNCH_METHODS, MOVE_ON, type MoveOn } from '../../packages/packages.schemas.js'
import { attr, childrenOf, element, elements, nameOf, parseXml, textOf, type XmlNode } from '../../packages/xml.js'
import { COURSE_STRUCTURE_XSD } from './cmi5-course-structure.xsd.js'

export const CMI5_FILE = 'cmi5.xml'
/** The parameters the LMS adds to every AU URL (cmi5 §8.1): an AU URL may not carry them already. */
export const LAUNCH_PARAMETERS = ['endpoint', 'fetch', 'actor', 'registration', 'activityId']

// A fully qualified IRI (cmi5 §3, RFC 3987): a scheme, then no white space; the WHATWG parser takes the rest.
const isIri = (value: string) => /^[a-zA-Z][a-zA-Z0-9+.-]*:\S+$/.test(value) && URL.canParse(value)
const isAbsolute = (url: string) => /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(url)

/** The first langstring of a title or description (the LMS shows one language). */
const langText = (node: XmlNode, name: string) => {
  const holder = element(node, name)
  return holder ? textOf(element(holder, 'langstring')) || textOf(holder) : ''
}

async function schemaErrors(text: string, errors: PackageErrors): Promise<void> {
  const validated = validateXML({
    xml: [{ fileName: CMI5_FILE, contents: text }],
    schema: [{ fileName: 'CourseStructure.xsd', contents: COURSE_STRUCTURE_XSD }],
  })
  // The validator gives up on some documents instead of listing their errors: the document is at fault.
  const result = await validated.catch((error: Error) => ({ errors: [{ message: error.message, loc: undefined }] }))
  for (const error of result.errors) {
    const line = error.loc?.lineNumber
    errors.add('schema_invalid', error.message.trim(), line ? `${CMI5_FILE}:${line}` : CMI5_FILE)
  }
}

interface Walk {
  aus: PackageAu[]
  blocks: PackageBlock[]
  seen: Map<string, string>
  errors: PackageErrors
  files: PackageFiles
}

/** Ids of the course, blocks, AUs and objectives: each a fully qualified IRI, each used once (cmi5 §13.1). */
function checkId(walk: Walk, id: string | undefined, where: string): string {
  const value = id ?? ''
  if (!isIri(value)) walk.errors.add('invalid_iri', `"${value}" is not a fully qualified IRI`, where)
  const first = walk.seen.get(value)
  if (first) walk.errors.add('duplicate_id', `The id "${value}" is also used by ${first}`, where)
  else walk.seen.set(value, where)
  return value
}

function checkObjectives(walk: Walk, holder: XmlNode, where: string): void {
  const objectives = element(holder, 'objectives')
  if (!objectives) return
  for (const [n, objective] of elements(objectives, 'objective').entries()) checkId(walk, attr(objective, 'id'), `${where}/objective[${n}]`)
}

/** The AU URL rules (cmi5 §13.1.4, §14): absolute, or a file of the package; no launch parameter in its query. */
function checkUrl(walk: Walk, url: string, where: string): void {
  if (isAbsolute(url)) {
    if (!/^https?:/i.test(url) || !URL.canParse(url)) walk.errors.add('invalid_url', `"${url}" is not a valid http(s) URL`, where)
  } else if (walk.files === null) {
    walk.errors.add(
      'relative_url_without_package',
      `"${url}" is relative, but a course structure sent alone has only absolute AU URLs`,
      where,
    )
  } else if (!resolvesInPackage(url, walk.files)) {
    walk.errors.add('url_not_in_package', `"${url}" names no file of the package`, where)
  }
  const query = URL.canParse(url, 'http://package.invalid/') ? new URL(url, 'http://package.invalid/').searchParams : new URLSearchParams()
  for (const name of LAUNCH_PARAMETERS) {
    if (query.has(name)) walk.errors.add('launch_parameter_collision', `The query parameter "${name}" is one the LMS sets at launch`, where)
  }
}

function readAu(walk: Walk, node: XmlNode, where: string): void {
  const publisherId = checkId(walk, attr(node, 'id'), where)
  checkObjectives(walk, node, where)
  const url = textOf(element(node, 'url'))
  checkUrl(walk, url, where)
  const masteryScore = attr(node, 'masteryScore')
  walk.aus.push({
    publisherId,
    title: langText(node, 'title'),
    url,
    moveOn: (MOVE_ON as readonly string[]).includes(attr(node, 'moveOn') ?? '') ? (attr(node, 'moveOn') as MoveOn) : 'NotApplicable',
    masteryScore: masteryScore === undefined ? null : Number(masteryScore),
    launchMethod: attr(node, 'launchMethod') === LAUNCH_METHODS[1] ? 'OwnWindow' : 'AnyWindow',
    launchParameters: textOf(element(node, 'launchParameters')) || null,
    entitlementKey: textOf(element(node, 'entitlementKey')) || null,
    activityType: attr(node, 'activityType') ?? null,
  })
}

const childrenInOrder = (holder: XmlNode) => childrenOf(holder).filter((child) => ['au', 'block'].includes(nameOf(child)))

/** AUs and blocks in document order; each block records the AUs it holds at any depth. */
function readChildren(walk: Walk, holder: XmlNode, where: string): number[] {
  const held: number[] = []
  for (const child of childrenInOrder(holder)) {
    const n = walk.aus.length
    if (nameOf(child) === 'au') {
      readAu(walk, child, `au[${n}]`)
      held.push(n)
    } else {
      const blockWhere = `${where}/block[${walk.blocks.length}]`
      const id = checkId(walk, attr(child, 'id'), blockWhere)
      checkObjectives(walk, child, blockWhere)
      const block: PackageBlock = { id, auIndexes: [] }
      walk.blocks.push(block)
      block.auIndexes = readChildren(walk, child, blockWhere)
      held.push(...block.auIndexes)
    }
  }
  return held
}

/**
 * A cmi5 course structure checked against its schema and the rules cmi5 §13–14 put on it.
 * `files`: the package's files; null for a `cmi5.xml` imported alone (every AU URL absolute).
 */
export async function readCmi5(text: string, files: PackageFiles): Promise<ReadManifest> {
  const errors = new PackageErrors()
  const root = parseXml(text, CMI5_FILE, errors)
  if (!root) return { parsed: null, errors, standard: 'cmi5' }
  await schemaErrors(text, errors)
  const course = element(root, 'course')
  if (errors.list.length || !course) return { parsed: null, errors, standard: 'cmi5' }
  const walk: Walk = { aus: [], blocks: [], seen: new Map(), errors, files }
  const publisherId = checkId(walk, attr(course, 'id'), 'course')
  checkObjectives(walk, root, 'courseStructure')
  readChildren(walk, root, 'courseStructure')
  if (errors.list.length) return { parsed: null, errors, standard: 'cmi5' }
  const title = langText(course, 'title')
  const description = langText(course, 'description') || null
  return { parsed: { standard: 'cmi5', title, description, publisherId, aus: walk.aus, blocks: walk.blocks }, errors }
}
