// The ceiling the server's own /healthz is held against (issue 30): a bare Fastify app answering the
// same route with the same body and response schema, and none of the service's hooks. Served as a
// child process of the bench on PORT.
import Fastify from 'fastify'

const app = Fastify({ logger: false })
app.get(
  '/healthz',
  { schema: { response: { 200: { type: 'object', properties: { status: { type: 'string' } }, required: ['status'] } } } },
  async () => ({ status: 'ok' }),
)
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) })
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void app.close().then(() => process.exit(0)))
