// The server and the CLI import this first: modules run in import order, so an old Node.js is refused
// with one line before the rest of the service loads and fails in a way that does not say why.
import { nodeVersionProblem, supportedNodeRange } from './lib/node-version.js'

const problem = nodeVersionProblem(process.versions.node, supportedNodeRange())
if (problem) {
  console.error(problem)
  process.exit(1)
}
