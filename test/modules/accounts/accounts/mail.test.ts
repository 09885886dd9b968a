import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, client, type TestApp } from '../../../app.js'
import { createOrg, type TestOrg } from '../../../factories.js'
import { linkToken, newPerson } from '../../../fixtures/accounts.js'

// With SMTP_URL set the links are e-mailed too (DECISIONS §15), here to a real SMTP server.

interface Received {
  from: string
  to: string[]
  raw: string
}

const received: Received[] = []
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    const chunks: Buffer[] = []
    stream.on('data', (chunk: Buffer) => chunks.push(chunk))
    stream.on('end', () => {
      const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : ''
      received.push({ from, to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw: Buffer.concat(chunks).toString() })
      callback()
    })
  },
})

/** The text of a received message, its quoted-printable soft breaks and escapes undone. */
const bodyOf = (raw: string) =>
  raw
    .slice(raw.indexOf('\r\n\r\n') + 4)
    .replace(/=\r\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
const headerOf = (raw: string, name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(raw)?.[1]

let t: TestApp
let org: TestOrg
beforeAll(async () => {
  server.listen(0, '127.0.0.1')
  await once(server.server, 'listening')
  const { port } = server.server.address() as AddressInfo
  t = await buildTestApp({
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    SMTP_FROM: 'Seaworthy <no-reply@seaworthy.test>',
    PUBLIC_URL: 'https://crew.example.test',
  })
  org = await createOrg(t.app, t.database.db, { name: 'Nordic Mail Lines' })
})
afterAll(async () => {
  await t.app.close()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

const mailTo = (address: string) => received.filter((mail) => mail.to.includes(address))

describe('e-mailed links', () => {
  it('sends the invitation to the new user, with the link the answer carries, and the link works', async () => {
    const person = newPerson()
    const created = await org.admin.api.post('/api/v1/shared/users', person)
    expect(created.status).toBe(201)
    expect(created.body.invitation.url).toMatch(/^https:\/\/crew\.example\.test\/console\/invite\//)
    const [mail, ...more] = mailTo(person.email)
    expect(more).toEqual([])
    expect(mail.from).toBe('no-reply@seaworthy.test')
    expect(headerOf(mail.raw, 'Subject')).toBe('Nordic Mail Lines invites you to Seaworthy')
    const body = bodyOf(mail.raw)
    expect(body).toContain(`Hello ${person.firstName},`)
    expect(body).toContain(created.body.invitation.url)
    const token = linkToken(created.body.invitation.url)
    const accepted = await client(t.app).post(`/api/v1/auth/invitations/${token}/accept`, { password: 'mailed link password' })
    expect(accepted.status).toBe(200)
  })

  it('sends a re-issued invitation and a password reset', async () => {
    const person = newPerson()
    const created = await org.admin.api.post('/api/v1/shared/users', person)
    const reissued = await org.admin.api.post(`/api/v1/shared/users/${created.body.id}/invitation`)
    expect(mailTo(person.email).map((mail) => bodyOf(mail.raw).includes(reissued.body.url))).toEqual([false, true])

    const reset = await org.admin.api.post(`/api/v1/shared/users/${org.crew.id}/password-reset`)
    expect(reset.status).toBe(201)
    const [mail] = mailTo(org.crew.email)
    expect(headerOf(mail.raw, 'Subject')).toBe('Reset your Seaworthy password')
    expect(bodyOf(mail.raw)).toContain(reset.body.url)
  })

  it('still answers the link when the mail server refuses the message', async () => {
    const app = await buildTestApp({ SMTP_URL: 'smtp://127.0.0.1:9', SMTP_FROM: 'no-reply@seaworthy.test' })
    try {
      const other = await createOrg(app.app, app.database.db)
      const created = await other.admin.api.post('/api/v1/shared/users', newPerson())
      expect(created.status).toBe(201)
      expect(created.body.invitation.url).toContain('/console/invite/')
    } finally {
      await app.app.close()
    }
  })
})
