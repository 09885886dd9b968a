// The /healthz probe (probe.ts), on a thread of its own so that the suite's own work (building and
// sending large bodies) never delays it: one GET at a time over a kept-alive connection, each timed
// from the request to the end of its answer, every sample posted to the suite.
import { Agent, get } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import { parentPort, workerData } from 'node:worker_threads'

const { url, intervalMs, timeoutMs } = workerData
const agent = new Agent({ keepAlive: true, maxSockets: 1 })
const now = () => performance.timeOrigin + performance.now()

function probe() {
  return new Promise((resolve) => {
    const req = get(url, { agent, timeout: timeoutMs }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
      res.on('error', () => resolve(0))
    })
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', () => resolve(0))
  })
}

let running = true
parentPort.on('message', (message) => {
  if (message === 'stop') running = false
})
while (running) {
  const start = now()
  const status = await probe()
  parentPort.postMessage({ start, end: now(), status })
  await sleep(intervalMs)
}
agent.destroy()
parentPort.close()
