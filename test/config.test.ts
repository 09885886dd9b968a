import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../src/config.js'

describe('configuration', () => {
  it('stops with one line naming the bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATA_DIR: '/tmp/x' })).toThrow(
      new ConfigError('Invalid configuration: PORT Input should be a valid integer'),
    )
    expect(() => loadConfig({ EXPIRING_SOON_DAYS: '-1', SEAWORTHY_JWT_SECRET: 'x'.repeat(40) })).toThrow(/EXPIRING_SOON_DAYS/)
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x', SEAWORTHY_JWT_SECRET: 'x'.repeat(40) })).toThrow(/DATABASE_URL/)
  })

  it('requires SEAWORTHY_JWT_SECRET with DATABASE_URL', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://localhost/x' })).toThrow(/SEAWORTHY_JWT_SECRET is required/)
  })

  it('refuses several workers on the embedded database', () => {
    expect(() => loadConfig({ WORKERS: '2', DATA_DIR: '/tmp/x', SEAWORTHY_JWT_SECRET: 'x'.repeat(40) })).toThrow(
      /WORKERS above 1 needs DATABASE_URL/,
    )
    expect(loadConfig({ WORKERS: '2', DATABASE_URL: 'postgres://localhost/x', SEAWORTHY_JWT_SECRET: 'x'.repeat(40) }).workers).toBe(2)
  })

  it('reads TRUST_PROXY as a list of IPs and CIDRs, and refuses anything else', () => {
    const base = { DATA_DIR: '/tmp/x', SEAWORTHY_JWT_SECRET: 'x'.repeat(40) }
    expect(loadConfig(base).trustProxy).toEqual([])
    expect(loadConfig({ ...base, TRUST_PROXY: ' 10.0.0.1, 192.168.0.0/16,2001:db8::/32 ' }).trustProxy).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '2001:db8::/32',
    ])
    for (const bad of ['proxy.example.com', '10.0.0.0/33', 'true']) {
      expect(() => loadConfig({ ...base, TRUST_PROXY: bad })).toThrow(/^Invalid configuration: TRUST_PROXY invalid/)
    }
  })

  it('applies the documented defaults', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://localhost/x', SEAWORTHY_JWT_SECRET: 'x'.repeat(40) })
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8000,
      accessTokenTtlSeconds: 3600,
      expiringSoonDays: 90,
      uploadMaxBytes: 26214400,
      workers: 1,
      login: { maxPerPair: 10, maxPerAddress: 50, maxPerEmail: 200, windowSeconds: 900 },
      trustProxy: [],
    })
    expect(Object.isFrozen(config)).toBe(true)
  })
})
