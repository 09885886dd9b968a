import { attr, element, elements, type XmlNode } from './xml.js'

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
