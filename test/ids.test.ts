import { validate, version } from 'uuid'
import { describe, expect, it } from 'vitest'
import { uuidv7s } from '../src/lib/ids.js'

describe('uuidv7s', () => {
  it('gives distinct version 7 ids of this millisecond, sorting in the order given', () => {
    const before = Date.now()
    const ids = uuidv7s(1000)
    const after = Date.now()
    expect(ids).toHaveLength(1000)
    expect(new Set(ids).size).toBe(1000)
    expect(ids.every((id) => validate(id) && version(id) === 7)).toBe(true)
    expect([...ids].sort()).toEqual(ids)
    const msecs = Number.parseInt(ids[0].replaceAll('-', '').slice(0, 12), 16)
    expect(msecs).toBeGreaterThanOrEqual(before)
    expect(msecs).toBeLessThanOrEqual(after)
    expect(uuidv7s(0)).toEqual([])
    // Call after call, in the same millisecond or the next, the ids keep sorting in the order handed out.
    const batches = Array.from({ length: 50 }, () => uuidv7s(3)).flat()
    expect([...batches].sort()).toEqual(batches)
    expect(new Set(batches).size).toBe(150)
  })

  it('never hands out the same random bytes twice, across the refills of its random pool', () => {
    // 16 + 4 bytes per call of one id: 2,000 calls pass through the 4 KiB pool about ten times.
    const ids = Array.from({ length: 2000 }, () => uuidv7s(1)[0])
    const randomTails = ids.map((id) => id.replaceAll('-', '').slice(16))
    expect(new Set(randomTails).size).toBe(2000)
  })
})
