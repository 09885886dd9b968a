import swagger from '@fastify/swagger'
import Fastify from 'fastify'
import Type from 'typebox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { documentObject, documentRoute, operationIdOf } from '../src/lib/openapi.js'
import { compileSchema } from '../src/lib/validation.js'
import { buildTestApp, client, type TestApp } from './app.js'
import { createOrg, nextImo } from './factories.js'
import { inlined } from './served-routes.js'

// DECISIONS §12: the served document is what clients are generated from.

let t: TestApp
let spec: any
let operations: { route: string; op: any }[]
beforeAll(async () => {
  t = await buildTestApp()
  spec = (await client(t.app).get('/openapi.json')).body
  operations = Object.entries(spec.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, op })),
  )
})
afterAll(() => t.app.close())

const byId = (operationId: string) => operations.find(({ op }) => op.operationId === operationId)!.op
const statuses = (operationId: string) => Object.keys(byId(operationId).responses)
const schemaOf = (media: any) => inlined(media?.schema, spec.components.schemas)

describe('operations', () => {
  it('each has a unique camelCase operationId, a summary and a description', () => {
    for (const { route, op } of operations) {
      expect({
        route,
        id: /^[a-z][a-zA-Z]+$/.test(op.operationId),
        summary: Boolean(op.summary),
        description: Boolean(op.description),
      }).toEqual({
        route,
        id: true,
        summary: true,
        description: true,
      })
    }
    const ids = operations.map(({ op }) => op.operationId)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids).toEqual(expect.arrayContaining(['listShips', 'createIdentityDocument', 'verifyIdentityDocument', 'createToken']))
  })

  it('declares only the errors each can answer with, each with its body', () => {
    expect(statuses('listShips')).toEqual(['200', '401', '422', '503'])
    expect(statuses('getShip')).toEqual(['200', '401', '404', '414', '422', '503'])
    expect(statuses('createShip')).toEqual(['201', '401', '403', '409', '413', '422', '503'])
    expect(statuses('getCurrentUser')).toEqual(['200', '401', '503'])
    expect(statuses('createToken')).toEqual(['200', '401', '413', '422', '429', '503'])
    expect(statuses('downloadUploadObject')).toEqual(['200', '403', '404', '422'])
    expect(operations.filter(({ op }) => op.responses['429']).map(({ op }) => op.operationId)).toEqual(['createToken'])
    const courseDelete = byId('deleteCourse').responses
    expect(courseDelete['403'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorBody' })
    expect(courseDelete['422'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/HTTPValidationError' })
    expect(courseDelete['409'].description).toBe('Conflict with the current state')
  })

  it('marks public operations as needing no token and every other one as bearer', () => {
    const open = operations.filter(({ op }) => op.security.length === 0).map(({ op }) => op.operationId)
    expect(open.sort()).toEqual([
      'acceptInvitation',
      'acceptPasswordReset',
      'commitScorm',
      'createToken',
      'downloadUploadObject',
      // cmi5's fetch URL and the SCORM player's calls carry a launch session's own credential, not a token.
      'fetchAuthToken',
      'finishSsoLogin',
      'getScormRuntime',
      'logout',
      'postUploadTarget',
      'startSsoLogin',
    ])
    expect(byId('listShips').security).toEqual([{ bearerAuth: [] }])
  })

  it('leaves query parameters with a default optional', () => {
    const parameters = byId('listShips').parameters
    expect(parameters.map((p: any) => [p.name, p.required])).toEqual([
      ['limit', false],
      ['cursor', false],
      ['search', false],
      ['include_count', false],
    ])
  })

  it('declares bytes where bytes flow: the signed download and the upload form', () => {
    const download = byId('downloadUploadObject').responses['200'].content
    expect(Object.keys(download).sort()).toEqual(['application/octet-stream', 'application/pdf', 'application/zip', 'image/jpeg', 'image/png', 'text/xml'])
    expect(download['application/pdf'].schema).toEqual({ type: 'string', format: 'binary' })
    const form = byId('postUploadTarget').requestBody.content['multipart/form-data'].schema
    expect(form.properties.file).toEqual({ type: 'string', format: 'binary' })
    expect(form.required).toEqual(['key', 'Content-Type', 'policy', 'x-seaworthy-signature', 'file'])
  })
})

describe('schemas', () => {
  it('names resources, list envelopes and error bodies as components', () => {
    const names = Object.keys(spec.components.schemas)
    expect(names).toEqual(expect.arrayContaining(['Ship', 'ShipPage', 'Assignment', 'AssignmentPage', 'ErrorBody', 'HTTPValidationError']))
    expect(byId('listShips').responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ShipPage' })
    expect(spec.components.schemas.ShipPage.properties.items.items).toEqual({ $ref: '#/components/schemas/Ship' })
  })

  it('leaves the live route schemas alone: answers serialized after the document was built are whole', async () => {
    const { admin } = await createOrg(t.app, t.database.db)
    const imoNumber = nextImo()
    expect((await admin.api.post('/api/v1/shared/ships', { name: 'Nordic Star', imoNumber })).status).toBe(201)
    const page = await admin.api.get('/api/v1/shared/ships')
    expect(page.body).toEqual({
      items: [expect.objectContaining({ name: 'Nordic Star', imoNumber, mmsi: null })],
      nextCursor: null,
      hasMore: false,
      totalCount: null,
    })
  })

  it('gives every JSON request body and success answer an example that its schema accepts', () => {
    const media = operations.flatMap(({ route, op }) => [
      ...Object.entries(op.requestBody?.content ?? {}).map(([type, m]) => ({ where: `${route} body ${type}`, m })),
      ...Object.entries(op.responses)
        .filter(([status]) => status.startsWith('2'))
        .flatMap(([status, r]: [string, any]) =>
          Object.entries(r.content ?? {}).map(([type, m]) => ({ where: `${route} ${status} ${type}`, m })),
        ),
    ])
    const json = media.filter(({ where }) => where.endsWith('json') || where.endsWith('x-www-form-urlencoded'))
    expect(json.length).toBeGreaterThan(50)
    for (const { where, m } of json as { where: string; m: any }[]) {
      const schema = schemaOf(m)
      const example = m.example ?? schema.examples?.[0]
      expect({ where, hasExample: example !== undefined }).toEqual({ where, hasExample: true })
      const validate = compileSchema(schema, false)
      expect({ where, valid: validate(structuredClone(example)), errors: validate.errors ?? null }).toEqual({
        where,
        valid: true,
        errors: null,
      })
    }
  })
})

describe('the central mechanism', () => {
  it('derives a stable id for a route that names none', () => {
    expect(operationIdOf('GET', '/api/v1/learn/admin/analytics/course-difficulty')).toBe('listAdminAnalyticsCourseDifficulty')
    expect(operationIdOf('PATCH', '/api/v1/crew/users/{user_id}/next-of-kin/{next_of_kin_id}')).toBe('updateUsersNextOfKinById')
  })

  it('refuses two different schemas under one title', async () => {
    const app = Fastify()
    const components = { securitySchemes: { bearerAuth: { type: 'http' as const, scheme: 'bearer' } } }
    await app.register(swagger, { openapi: { openapi: '3.1.0', components }, transform: documentRoute, transformObject: documentObject })
    app.get('/a', { schema: { response: { 200: Type.Object({ a: Type.String() }, { title: 'Thing' }) } } }, async () => ({ a: '' }))
    app.get('/b', { schema: { response: { 200: Type.Object({ b: Type.String() }, { title: 'Thing' }) } } }, async () => ({ b: '' }))
    await app.ready()
    expect(() => app.swagger()).toThrow('Two different schemas are titled Thing')
    await app.close()
  })
})
