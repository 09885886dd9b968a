import { randomUUID } from 'node:crypto'
import { gzipSync } from 'node:zlib'

// DECISIONS §16 budget: 200 queued cmi5 statements, as the console sends them to /learn/offline/sync
// (one session's records, gzip), must cost at most 60 KB on the wire. Statements as a real AU writes them:
// actor, verb, LMS activity id, registration, cmi5 context template and categories, result, timestamp.
const PUBLIC = 'https://seaworthy.example.com'
const registration = randomUUID()
const sessionId = randomUUID()
const actor = { objectType: 'Agent', account: { homePage: PUBLIC, name: randomUUID() }, name: 'Ana Reyes' }
const activity = `${PUBLIC}/lms/registrations/${registration}/aus/0`
const verbs = ['initialized', 'experienced', 'answered', 'progressed', 'completed', 'passed', 'terminated']

const statements = Array.from({ length: 200 }, (_, i) => ({
  id: randomUUID(),
  actor,
  verb: { id: `http://adlnet.gov/expapi/verbs/${verbs[i % verbs.length]}`, display: { 'en-US': verbs[i % verbs.length] } },
  object: { objectType: 'Activity', id: `${activity}/questions/${i}` },
  result: { score: { scaled: (i % 10) / 10 }, duration: `PT${i % 60}S`, response: `choice-${i % 4}` },
  context: {
    registration,
    contextActivities: {
      grouping: [{ objectType: 'Activity', id: 'https://w3id.org/xapi/cmi5/catapult/lts/course/geology-intro/1' }],
      category: [{ id: 'https://w3id.org/xapi/cmi5/context/categories/cmi5' }],
    },
    extensions: { 'https://w3id.org/xapi/cmi5/context/extensions/sessionid': sessionId },
  },
  timestamp: new Date(Date.UTC(2026, 10, 28, 8, 0, i)).toISOString(),
}))
const credential = Buffer.from(`session.${sessionId}:${randomUUID()}`).toString('base64')
const body = JSON.stringify({ sessions: [{ sessionId, credential, statements }] })
const wire = gzipSync(body).length
const headers = 600 // request line and headers of one POST with a bearer token, and its small answer
console.log(`offline sync, 200 statements: ${body.length} bytes as JSON, ${wire} gzip, ~${wire + headers} on the wire (budget 61,440)`)
if (wire + headers > 61_440) process.exitCode = 1
