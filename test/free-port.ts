import { once } from 'node:events'
import { type AddressInfo, createServer } from 'node:net'

/** A port free on loopback right now, for a server the test starts (and names in its PUBLIC_URL). */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  server.close()
  await once(server, 'close')
  return port
}

/** Whether a port can be listened on at this moment. */
async function canListen(port: number): Promise<boolean> {
  const server = createServer()
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => resolve(true))
  })
  if (listening) await new Promise((resolve) => server.close(resolve))
  return listening
}

/**
 * A PORT for the whole service, which listens on it and, for course content, on PORT + 1: both free, and
 * below Linux's ephemeral range (32768–60999), where the next port can be taken between the pick and the
 * service's listen as the local end of any outgoing connection (the suite's, the browser's, the database client's).
 */
export async function freeServicePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + 2 * Math.floor(Math.random() * 6000)
    if ((await canListen(port)) && (await canListen(port + 1))) return port
  }
}
