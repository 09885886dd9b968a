import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { Actor } from '../../../../src/lib/access.js'
import { CERTIFICATES } from '../../../../src/modules/crew/record-kinds/certificates.js'
import { IDENTITY_DOCUMENTS } from '../../../../src/modules/crew/record-kinds/identity-documents.js'
import type { RecordKind } from '../../../../src/modules/crew/reviewed-records/reviewed-records.schemas.js'
import { createExpiring } from '../../../../src/modules/crew/reviewed-records/reviewed-records.service.js'
import { useTestApp } from '../../../app.js'
import { createOrg, type TestUser } from '../../../factories.js'
import { historyOf, insertTestUpload, verificationRow } from '../../../fixtures/crew-records.js'

// Creates of documents and certificates that arrive while one of their line runs are written together,
// in one statement (reviewed-records/expiring-batches.queries.ts): each must come out as it would alone,
// with its verification, its history, its event and its own answer. The creates are the route's own
// call, made at once (over HTTP, the embedded database answers one request before the next is read);
// what they wrote is read back over HTTP.

const t = useTestApp()
const N = 24

/** The route's create as `user` makes it, with its request id. */
async function create(kind: RecordKind, user: TestUser, orgId: string, ownerId: string, body: Record<string, unknown>, requestId: string) {
  const actor: Actor = { userId: user.id, orgId, role: user.role, products: ['learn', 'crew'], requestId }
  try {
    return { status: 201, body: JSON.parse(await createExpiring(t.database.db, kind, actor, ownerId, body, t.config.expiringSoonDays)) }
  } catch (error) {
    return { status: (error as { statusCode: number }).statusCode, body: undefined }
  }
}

/** How many transactions wrote the organization's rows of `table`: fewer than its rows when creates went together. */
async function writingTransactions(table: 'identity_documents' | 'certificates', orgId: string) {
  const rows = await t.database.db
    .selectFrom(table)
    .select(sql<string>`xmin::text`.as('tx'))
    .where('organization_id', '=', orgId)
    .execute()
  return new Set(rows.map((row) => row.tx)).size
}

const createdEvents = (orgId: string, type: string) =>
  t.database.db
    .selectFrom('events')
    .select(['target_id', 'actor_user_id', 'actor_role', 'request_id', 'data'])
    .where('organization_id', '=', orgId)
    .where('type', '=', type)
    .execute()

describe('creates that arrive together', () => {
  it('are written together, each as it would be alone: its record, verification, history, event and request', async () => {
    const org = await createOrg(t.app, t.database.db)
    const crew = await Promise.all([org.addUser('crew'), org.addUser('crew'), org.addUser('crew')])
    const body = (i: number) => ({ documentType: 'passport', documentNumber: `P${i}`, issuingCountry: 'PH', expiryDate: `2031-01-0${(i % 9) + 1}` })
    const other = await createOrg(t.app, t.database.db)
    // The first runs alone; the others, the stranger among them, wait for it and go together.
    const answers = await Promise.all([
      ...Array.from({ length: N }, (_, i) => create(IDENTITY_DOCUMENTS, org.officeAdmin, org.id, crew[i % 3].id, body(i), `together-${i}`)),
      create(IDENTITY_DOCUMENTS, org.officeAdmin, org.id, other.crew.id, body(0), 'stranger'),
    ])
    const created = answers.slice(0, N)
    const stranger = answers[N]
    expect(stranger.status).toBe(404)
    expect(created.map((res) => res.status)).toEqual(Array(N).fill(201))
    expect(await writingTransactions('identity_documents', org.id)).toBeLessThan(N)

    const events = new Map((await createdEvents(org.id, 'identity_document.created')).map((e) => [e.target_id, e]))
    expect(events.size).toBe(N)
    for (const [i, res] of created.entries()) {
      expect(res.body).toMatchObject({ ...body(i), verification: { status: 'pending' }, uploadedByUserId: org.officeAdmin.id })
      expect((await org.officeAdmin.api.get(`/api/v1/crew/identity-documents/${res.body.id}`)).body).toEqual(res.body)
      expect(events.get(res.body.id)).toEqual({
        target_id: res.body.id,
        actor_user_id: org.officeAdmin.id,
        actor_role: 'office_admin',
        request_id: `together-${i}`,
        data: res.body,
      })
      expect(await verificationRow(t.database.db, res.body.id)).toMatchObject({ user_id: crew[i % 3].id, status: 'pending' })
      expect(await historyOf(t.database.db, res.body.id)).toEqual([
        expect.objectContaining({ from_status: null, to_status: 'pending', action: 'create', actor_user_id: org.officeAdmin.id }),
      ])
    }
  })

  it('answer each its own outcome when their statement fails: an upload named twice is refused once, the rest created', async () => {
    const org = await createOrg(t.app, t.database.db)
    const other = await createOrg(t.app, t.database.db)
    const uploads = await Promise.all(Array.from({ length: N + 3 }, () => insertTestUpload(t.database.db, org.id, org.crew.id)))
    const [lead, twice, strangers, ...own] = uploads
    const post = (userId: string, uploadId: string) =>
      create(CERTIFICATES, org.admin, org.id, userId, { certificateType: 'stcw_basic_safety', certificateNumber: 'C', uploadId }, 'r')
    // The lead runs alone; the others wait for it and go together, and one upload named twice fails their statement.
    const [first, stranger, once, again, ...rest] = await Promise.all([
      post(org.crew.id, lead),
      post(other.crew.id, strangers),
      post(org.crew.id, twice),
      post(org.crew.id, twice),
      ...own.map((uploadId) => post(org.crew.id, uploadId)),
    ])
    expect(first.status).toBe(201)
    expect(stranger.status).toBe(404)
    expect([once.status, again.status].sort()).toEqual([201, 422])
    expect(rest.map((res) => res.status)).toEqual(Array(N).fill(201))
    const events = await createdEvents(org.id, 'certificate.created')
    const createdIds = [first, once, again, ...rest].filter((res) => res.status === 201).map((res) => res.body.id)
    expect(events.map((e) => e.target_id).sort()).toEqual(createdIds.sort())
    expect(await createdEvents(other.id, 'certificate.created')).toEqual([])
  })

  it("hold each crew member to their own uploads, and write nothing of the refused one's", async () => {
    const org = await createOrg(t.app, t.database.db)
    const mates = [org.crew, await org.addUser('crew')]
    const uploads = await Promise.all(Array.from({ length: N }, (_, i) => insertTestUpload(t.database.db, org.id, mates[i % 2].id)))
    const foreign = await insertTestUpload(t.database.db, org.id, mates[1].id)
    const post = (i: number, uploadId: string) =>
      create(IDENTITY_DOCUMENTS, mates[i % 2], org.id, mates[i % 2].id, { documentType: 'seaman_book', documentNumber: `S${i}`, uploadId }, `s${i}`)
    const [refused, ...created] = await Promise.all([post(0, foreign), ...uploads.map((uploadId, i) => post(i, uploadId))])
    expect(refused.status).toBe(422)
    expect(created.map((res) => res.status)).toEqual(Array(N).fill(201))
    expect(created.map((res) => res.body)).toEqual(uploads.map((uploadId, i) => expect.objectContaining({ documentNumber: `S${i}`, uploadId })))
    expect(await writingTransactions('identity_documents', org.id)).toBeLessThan(N)
    expect(await createdEvents(org.id, 'identity_document.created')).toHaveLength(N)
  })
})
