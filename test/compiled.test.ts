import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { compiledPerShape } from '../src/db/compiled.js'
import type { Db } from '../src/db/database.js'
import { testDatabase } from './app.js'

// compiledPerShape builds a statement once per shape of its values and binds the values each run:
// the shape must tell apart whatever the builder branches on, and no value may stick to the statement.
interface Values {
  id: number
  fields: { name?: string | null; note?: string | null }
  tags: string[]
}

let builds = 0
const statement = compiledPerShape((db: Db, p: Values) => {
  builds++
  const name = p.fields.name === undefined ? sql`'(kept)'` : p.fields.name === null ? sql`'(cleared)'` : sql`${p.fields.name}::text`
  const note = p.fields.note === undefined ? sql`null` : sql`${p.fields.note}::text`
  return db.selectNoFrom([
    sql<number>`${p.id}::int`.as('id'),
    sql<string>`${name}`.as('name'),
    sql<string | null>`${note}`.as('note'),
    sql<number>`cardinality(${p.tags}::text[])`.as('tags'),
  ])
})

let db: Db
beforeAll(async () => {
  db = (await testDatabase()).db
})

describe('compiledPerShape', () => {
  it('binds new values on every run of one shape, and builds that shape once', async () => {
    const before = builds
    const first = await statement(db, { id: 1, fields: { name: 'Anna' }, tags: ['a'] })
    const second = await statement(db, { id: 2, fields: { name: 'Ben' }, tags: ['a', 'b', 'c'] })
    expect([first, second]).toEqual([[{ id: 1, name: 'Anna', note: null, tags: 1 }], [{ id: 2, name: 'Ben', note: null, tags: 3 }]])
    expect(builds - before).toBe(1)
  })

  it('builds again for a field left out, a field that is null, and a field added', async () => {
    const before = builds
    const kept = await statement(db, { id: 3, fields: {}, tags: [] })
    const cleared = await statement(db, { id: 4, fields: { name: null }, tags: [] })
    const both = await statement(db, { id: 5, fields: { name: 'Cleo', note: 'x' }, tags: [] })
    const reordered = await statement(db, { id: 6, fields: { note: 'y', name: 'Dan' }, tags: [] })
    expect([kept, cleared, both, reordered]).toEqual([
      [{ id: 3, name: '(kept)', note: null, tags: 0 }],
      [{ id: 4, name: '(cleared)', note: null, tags: 0 }],
      [{ id: 5, name: 'Cleo', note: 'x', tags: 0 }],
      [{ id: 6, name: 'Dan', note: 'y', tags: 0 }],
    ])
    // Three shapes; the fields' order is no part of a shape.
    expect(builds - before).toBe(3)
  })
})
