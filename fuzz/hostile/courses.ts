import { entry, type ZipEntry, zip } from './zip.js'

// The course packages of the run, written by the suite: a one-AU cmi5 course and a one-SCO SCORM 1.2
// course, each a valid base that a hostile case breaks in one way.

export const CMI5_COURSE_ID = 'https://hostile.example.test/courses/drill'

/** A cmi5.xml of one AU launching index.html; `inside` goes into the course's description. */
export function cmi5Xml(inside = ''): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
  <course id="${CMI5_COURSE_ID}">
    <title><langstring lang="en-US">Fire drill</langstring></title>
    <description><langstring lang="en-US">A drill${inside}</langstring></description>
  </course>
  <au id="${CMI5_COURSE_ID}/au/1" moveOn="Completed" launchMethod="AnyWindow">
    <title><langstring lang="en-US">Fire drill</langstring></title>
    <description><langstring lang="en-US">The only lesson</langstring></description>
    <url>index.html</url>
  </au>
</courseStructure>
`
}

/** An imsmanifest.xml of SCORM 1.2 with one SCO launching index.html; `metadata` goes into its metadata. */
export function scormManifest(metadata = ''): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<manifest identifier="hostile-drill" version="1" xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion>${metadata}</metadata>
  <organizations default="drill">
    <organization identifier="drill">
      <title>Lifeboat drill</title>
      <item identifier="lesson" identifierref="sco"><title>Lifeboat drill</title></item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="sco" type="webcontent" adlcp:scormtype="sco" href="index.html">
      <file href="index.html"/>
      <file href="assets/style.css"/>
    </resource>
  </resources>
</manifest>
`
}

const PAGE =
  '<!doctype html><html><head><link rel="stylesheet" href="assets/style.css"><title>Drill</title></head><body><p>Drill</p></body></html>'

export const cmi5Entries = (): ZipEntry[] => [entry('cmi5.xml', cmi5Xml()), entry('index.html', PAGE)]
export const scormEntries = (): ZipEntry[] => [
  entry('imsmanifest.xml', scormManifest()),
  entry('index.html', PAGE),
  entry('assets/style.css', 'body { margin: 1em }'),
]

export const cmi5Package = (extra: ZipEntry[] = []) => zip([...cmi5Entries(), ...extra])
export const scormPackage = (extra: ZipEntry[] = []) => zip([...scormEntries(), ...extra])

/** Elements nested `depth` deep, as text. */
export const nestedXml = (depth: number) => `${'<x>'.repeat(depth)}deep${'</x>'.repeat(depth)}`
