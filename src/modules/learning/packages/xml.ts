import { XMLParser, XMLValidator } from 'fast-xml-parser'
import type { PackageErrors } from './package-model.js'

/** An element as fast-xml-parser keeps document order: `{ name: children, ':@': attributes }`. */
export type XmlNode = Record<string, unknown>

/**
 * Manifests are read into memory and parsed at once, blocking the process while it runs: a larger one is refused.
 * A 1,000-AU cmi5.xml is ~1 MiB.
 */
export const MAX_MANIFEST_BYTES = 4 * 1024 * 1024

/** DECISIONS §13.7: elements nested deeper than this fail the import (the root is at depth 1). */
export const MAX_XML_DEPTH = 100

// Namespace prefixes dropped (SCORM's adlcp:, imsss:); attributes kept under their local names;
// values kept as text. The parser never fetches anything, and a DOCTYPE is refused before it runs.
const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  // The parser counts the elements above the one it opens: 99 admits a depth of 100 and refuses 101.
  maxNestedTags: MAX_XML_DEPTH - 1,
})

export const nameOf = (node: XmlNode) => Object.keys(node).find((key) => key !== ':@') ?? ''
const nodeIsMeta = (node: XmlNode) => nameOf(node).startsWith('?') || nameOf(node) === '#comment'
export const childrenOf = (node: XmlNode) => (node[nameOf(node)] as XmlNode[] | undefined) ?? []
export const attr = (node: XmlNode, name: string): string | undefined => {
  const value = (node[':@'] as Record<string, string> | undefined)?.[name]
  return value === undefined ? undefined : value.trim()
}
export const elements = (node: XmlNode, name: string) => childrenOf(node).filter((child) => nameOf(child) === name)
export const element = (node: XmlNode, name: string): XmlNode | undefined => elements(node, name)[0]
export const textOf = (node: XmlNode | undefined): string =>
  node
    ? childrenOf(node)
        .map((child) => (child['#text'] === undefined ? '' : String(child['#text'])))
        .join('')
        .trim()
    : ''

/**
 * The document's root element, or null with the reason in `errors`. A DOCTYPE is refused outright:
 * entity declarations are how an XML file reads other files or expands without bound, and neither
 * cmi5 nor SCORM needs one.
 */
export function parseXml(text: string, file: string, errors: PackageErrors): XmlNode | null {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) {
    errors.add('xml_doctype', 'Document type declarations and entities are not accepted', file)
    return null
  }
  const wellFormed = XMLValidator.validate(text)
  if (wellFormed !== true) {
    errors.add('xml_malformed', wellFormed.err.msg, `${file}:${wellFormed.err.line}`)
    return null
  }
  let nodes: XmlNode[]
  try {
    nodes = parser.parse(text) as XmlNode[]
  } catch (error) {
    const { message } = error as Error
    if (/nested/i.test(message)) errors.add('xml_too_deep', `Elements are nested deeper than ${MAX_XML_DEPTH}`, file)
    else errors.add('xml_malformed', message, file)
    return null
  }
  const root = nodes.find((node) => !nodeIsMeta(node))
  if (!root) errors.add('xml_malformed', 'The document has no root element', file)
  return root ?? null
}
