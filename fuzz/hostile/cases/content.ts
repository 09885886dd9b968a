import { type Case, hostileCase } from '../harness.js'
import { send } from '../http.js'
import { launchScorm, type ScormSession } from '../launch.js'

// The content origin (PORT + 1) asked for what is not a file of the package (DECISIONS §13.7): a folder,
// or a path with a `.` or `..` segment, sent as written (no client normalizes them away): 404.

const group = 'content'

function notFound(name: string, paths: string[]): Case {
  return hostileCase({
    group,
    name,
    prepare: (world) => launchScorm(world, world.crewA.api, world.registrations.a.scorm),
    run: async (_world, session: ScormSession, signal) => {
      const file = await send(`${session.contentBase}index.html`, { signal })
      if (file.status !== 200) return `the package's own index.html answered ${file.status}`
      const wrong: string[] = []
      for (const path of paths) {
        const answer = await send(session.contentBase + path, { signal })
        if (answer.status !== 404) wrong.push(`${path}: ${answer.status} ${answer.text.slice(0, 120)}`)
      }
      return wrong.length ? wrong.join('; ') : null
    },
  })
}

export const contentCases: Case[] = [
  notFound('a folder of the package: 404', ['assets', 'assets/']),
  notFound('a `.` or `..` segment: 404', [
    '.',
    './index.html',
    'assets/.',
    'assets/..',
    'assets/../index.html',
    'assets/%2e%2e/index.html',
    '%2e',
  ]),
]
