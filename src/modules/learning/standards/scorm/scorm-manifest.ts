import { type PackageAu, PackageErrors, type ReadManifest } from '../../packages/package-model.js'
import { resolvesInPackage } from '../../packages/package-urls.js'
import { attr, element, elements, parseXml, textOf, type XmlNode } from '../../packages/xml.js'
import type { ScormStandard } from './scorm.schemas.js'
import { activityTree, objectiveIds, sequencingCollection, sequencingOf } from './scorm-sequencing.js'

export const SCORM_FILE = 'imsmanifest.xml'

// The schema versions SCORM's editions write in <metadata><schemaversion>.
const VERSIONS: Record<string, ScormStandard> = {
  '1.2': 'scorm12',
  'CAM 1.3': 'scorm2004',
  '2004 2nd Edition': 'scorm2004',
  '2004 3rd Edition': 'scorm2004',
  '2004 4th Edition': 'scorm2004',
}

/** A relative path joined to an `xml:base` (which ends in a slash when it names a folder). */
const withBase = (base: string, href: string) => (base && !/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(href) ? `${base}${href}` : href)

/** The item's mastery score as 0..1, as each edition writes it. */
const MASTERY: Record<ScormStandard, (item: XmlNode) => number | null> = {
  // SCORM 1.2's adlcp:masteryscore, 0–100.
  scorm12: (item) => {
    const score = textOf(element(item, 'masteryscore'))
    return score && Number.isFinite(Number(score)) ? Number(score) / 100 : null
  },
  // SCORM 2004's primary objective measure, when it is satisfied by measure.
  scorm2004: (item) => {
    const primary = element(element(element(item, 'sequencing') ?? {}, 'objectives') ?? {}, 'primaryObjective')
    if (!primary || attr(primary, 'satisfiedByMeasure') !== 'true') return null
    const measure = textOf(element(primary, 'minNormalizedMeasure'))
    return measure && Number.isFinite(Number(measure)) ? Number(measure) : null
  },
}

interface Walk {
  standard: ScormStandard
  resources: Map<string, XmlNode>
  collection: Map<string, XmlNode>
  resourcesBase: string
  files: ReadonlySet<string>
  aus: PackageAu[]
  errors: PackageErrors
}

function readLaunchable(walk: Walk, item: XmlNode, resource: XmlNode, asset: boolean, where: string): void {
  const href = attr(resource, 'href')
  if (!href) {
    walk.errors.add('missing_href', `The ${asset ? 'asset' : 'SCO'} resource "${attr(resource, 'identifier')}" has no href`, where)
    return
  }
  const base = `${walk.resourcesBase}${attr(resource, 'base') ?? ''}`
  const parameters = attr(item, 'parameters') ?? ''
  const url =
    withBase(base, href) + (parameters && !parameters.startsWith('?') && !parameters.startsWith('#') ? `?${parameters}` : parameters)
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(url) && !resolvesInPackage(url, walk.files)) {
    walk.errors.add('href_not_in_package', `"${withBase(base, href)}" names no file of the package`, where)
  }
  walk.aus.push({
    publisherId: attr(item, 'identifier') ?? '',
    title: textOf(element(item, 'title')),
    url,
    moveOn: 'CompletedOrPassed',
    masteryScore: MASTERY[walk.standard](item),
    launchMethod: 'AnyWindow',
    launchParameters: textOf(element(item, 'dataFromLMS')) || textOf(element(item, 'datafromlms')) || null,
    entitlementKey: null,
    activityType: null,
    scormAsset: asset,
    objectiveIds: walk.standard === 'scorm2004' ? objectiveIds(sequencingOf(item, walk.collection)) : [],
  })
}

/** Items in document order: each that references a SCO or an asset (SCORM CAM) is one launchable unit. */
function readItems(walk: Walk, holder: XmlNode, where: string): void {
  for (const [n, item] of elements(holder, 'item').entries()) {
    const itemWhere = `${where}/item[${n}]`
    const ref = attr(item, 'identifierref')
    if (ref !== undefined) {
      const resource = walk.resources.get(ref)
      if (!resource)
        walk.errors.add('missing_resource', `The item references the resource "${ref}", which the manifest does not have`, itemWhere)
      else {
        const type = (attr(resource, 'scormtype') ?? attr(resource, 'scormType'))?.toLowerCase()
        if (type === 'sco' || type === 'asset') readLaunchable(walk, item, resource, type === 'asset', itemWhere)
      }
    }
    readItems(walk, item, itemWhere)
  }
}

/** A SCORM 1.2 or 2004 manifest: its schema version, default organization, resources and SCO files. */
export function readScorm(text: string, files: ReadonlySet<string>): ReadManifest {
  const errors = new PackageErrors()
  const root = parseXml(text, SCORM_FILE, errors)
  if (!root) return { parsed: null, errors }
  const version = textOf(element(element(root, 'metadata') ?? {}, 'schemaversion'))
  const standard = VERSIONS[version]
  if (!standard) {
    errors.add('unknown_schema_version', `The schema version "${version}" is neither SCORM 1.2 nor SCORM 2004`, `${SCORM_FILE}/metadata`)
    return { parsed: null, errors }
  }
  const holder = element(root, 'resources') ?? {}
  const resources = new Map(elements(holder, 'resource').map((r) => [attr(r, 'identifier') ?? '', r]))
  const organizations = element(root, 'organizations') ?? {}
  const all = elements(organizations, 'organization')
  const organization = all.find((o) => attr(o, 'identifier') === attr(organizations, 'default')) ?? all[0]
  if (!organization) {
    errors.add('no_organization', 'The manifest has no organization', `${SCORM_FILE}/organizations`)
    return { parsed: null, errors, standard }
  }
  const collection = sequencingCollection(root)
  const walk: Walk = { standard, resources, collection, resourcesBase: attr(holder, 'base') ?? '', files, aus: [], errors }
  readItems(walk, organization, `${SCORM_FILE}/organization`)
  if (!errors.list.length && walk.aus.length === 0)
    errors.add('no_sco', 'The default organization launches no SCO or asset', `${SCORM_FILE}/organization`)
  if (errors.list.length) return { parsed: null, errors, standard }
  const title = textOf(element(organization, 'title')) || walk.aus[0].title
  const activities = standard === 'scorm2004' ? { activityTree: activityTree(organization, collection, title) } : {}
  return {
    parsed: { standard, title, description: null, publisherId: attr(root, 'identifier') ?? null, aus: walk.aus, blocks: [], ...activities },
    errors,
  }
}
