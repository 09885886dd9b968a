import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { BuilderReadsValue, compiledOnce, compiledPerShape } from '../src/db/compiled.js'
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
    // Built once with stand-ins, and once with the first values to check that the builder does not branch on them.
    expect(builds - before).toBe(2)
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
    // Three shapes, each built twice (stand-ins, then the check); the fields' order is no part of a shape.
    expect(builds - before).toBe(6)
  })
})

describe('a builder that looks at its values fails loudly', () => {
  const reads = (message: RegExp) => expect.objectContaining({ constructor: BuilderReadsValue, message: expect.stringMatching(message) })

  it('when it reads, compares, converts or iterates one', async () => {
    const length = compiledOnce((db: Db, p: { ids: string[] }) => db.selectNoFrom(sql<number>`${p.ids.length}::int`.as('n')))
    const compared = compiledOnce((db: Db, p: { n: number }) => db.selectNoFrom(sql<number>`${p.n > 1 ? 2 : 1}::int`.as('n')))
    const converted = compiledPerShape((db: Db, p: { name: string }) => db.selectNoFrom(sql<string>`${`Dr ${p.name}`}::text`.as('n')))
    const iterated = compiledPerShape((db: Db, p: { ids: string[] }) => db.selectNoFrom(sql<number>`${[...p.ids].length}::int`.as('n')))
    await expect(length(db, { ids: ['a'] })).rejects.toEqual(reads(/reads \.length of the value of "ids"/))
    await expect(compared(db, { n: 2 })).rejects.toEqual(reads(/converts or compares the value of "n"/))
    await expect(converted(db, { name: 'Ada' })).rejects.toEqual(reads(/converts or compares the value of "name"/))
    await expect(iterated(db, { ids: ['a'] })).rejects.toEqual(reads(/iterates the value of "ids"/))
  })

  it('when it branches on one: its statement differs with the real values on the first run', async () => {
    const onEquality = compiledOnce((db: Db, p: { kind: string }) =>
      db.selectNoFrom(p.kind === 'ship' ? sql<string>`'ship'`.as('k') : sql<string>`${p.kind}::text`.as('k')),
    )
    const onTruth = compiledPerShape((db: Db, p: { fields: { flag: boolean } }) =>
      db.selectNoFrom(p.fields.flag ? sql<number>`1`.as('f') : sql<number>`0`.as('f')),
    )
    await expect(onEquality(db, { kind: 'ship' })).rejects.toEqual(reads(/branches on a value/))
    await expect(onTruth(db, { fields: { flag: false } })).rejects.toEqual(reads(/branches on a value \(shape \{fields:\{flag:\$\}\}\)/))
  })

  it('while one that only places its values binds new ones on every run', async () => {
    const placed = compiledOnce((db: Db, p: { ids: string[]; name: string }) =>
      db.selectNoFrom([sql<number>`cardinality(${p.ids}::text[])`.as('n'), sql<string>`${p.name}::text`.as('name')]),
    )
    expect(await placed(db, { ids: ['a', 'b'], name: 'Ada' })).toEqual([{ n: 2, name: 'Ada' }])
    expect(await placed(db, { ids: [], name: 'Ben' })).toEqual([{ n: 0, name: 'Ben' }])
  })
})
