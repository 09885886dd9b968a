// The demo organization's course (`demo-course/`, written for this project) as the cmi5 package a first
// start imports: its files plus the cmi5 client library it runs on (@xapi/cmi5's browser build), zipped
// into dist/demo-course.zip (or the path given). Run by `prepare` where its tools (devDependencies) are installed.
import { createWriteStream, mkdirSync, readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { ZipFile } from 'yazl'

const source = 'demo-course'
const target = process.argv[2] ?? join('dist', 'demo-course.zip')
const cmi5 = join(dirname(createRequire(import.meta.url).resolve('@xapi/cmi5/package.json')), 'dist', 'Cmi5.umd.js')

mkdirSync(dirname(target), { recursive: true })
const zip = new ZipFile()
for (const name of readdirSync(source).sort()) zip.addFile(join(source, name), name)
zip.addFile(cmi5, 'cmi5.umd.js')
zip.end()
await new Promise((resolve, reject) => zip.outputStream.pipe(createWriteStream(target)).on('close', resolve).on('error', reject))
