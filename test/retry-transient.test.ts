import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { isTransient, retryTransient } from '../src/lib/db-errors.js'

const deadlock = () => Object.assign(new Error('deadlock detected'), { code: '40P01' })

describe('retryTransient', () => {
  it('runs a write again after PostgreSQL broke a deadlock by rolling it back', async () => {
    let runs = 0
    const result = await retryTransient(async () => {
      runs++
      if (runs === 1) throw deadlock()
      return 'written'
    })
    expect(result).toBe('written')
    expect(runs).toBe(2)
  })

  it('gives up after its attempts, and never repeats a write that failed otherwise', async () => {
    let runs = 0
    const failing = (error: Error) => async () => {
      runs++
      throw error
    }
    await expect(retryTransient(failing(deadlock()), 3)).rejects.toMatchObject({ code: '40P01' })
    expect(runs).toBe(3)
    runs = 0
    const unique = Object.assign(new Error('duplicate key'), { code: '23505' })
    await expect(retryTransient(failing(unique))).rejects.toBe(unique)
    expect(runs).toBe(1)
  })
})

// PostgreSQL only: the embedded engine runs one statement at a time and cannot deadlock.
const url = process.env.TEST_DATABASE_URL

describe.skipIf(!url)('a real deadlock', () => {
  it('is what isTransient recognizes', async () => {
    const [a, b] = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })]
    await Promise.all([a.connect(), b.connect()])
    try {
      const table = `deadlock_${process.pid}`
      await a.query(
        `drop table if exists public.${table}; create table public.${table} (id int primary key); insert into public.${table} values (1), (2)`,
      )
      await a.query('begin')
      await b.query('begin')
      await a.query(`update public.${table} set id = id where id = 1`)
      await b.query(`update public.${table} set id = id where id = 2`)
      // Each now waits for the row the other holds: PostgreSQL rolls one of them back.
      const outcomes = await Promise.allSettled([
        a.query(`update public.${table} set id = id where id = 2`),
        b.query(`update public.${table} set id = id where id = 1`),
      ])
      const failed = outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason)
      expect(failed).toHaveLength(1)
      expect(isTransient(failed[0])).toBe(true)
      await Promise.all([a.query('rollback'), b.query('rollback')])
      await a.query(`drop table public.${table}`)
    } finally {
      await Promise.all([a.end(), b.end()])
    }
  })
})
