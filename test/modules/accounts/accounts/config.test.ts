import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../../../src/config.js'

const base = { SEAWORTHY_JWT_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/seaworthy-accounts-config' }

describe('accounts configuration', () => {
  it('defaults: invitations 168 hours, refresh tokens 30 days, no mail', () => {
    expect(loadConfig(base).accounts).toEqual({ invitationTtlHours: 168, refreshTokenTtlDays: 30, mail: null })
  })

  it('reads the mail settings, which go together and take smtp:// or smtps:// only', () => {
    const mail = { SMTP_URL: 'smtps://user:pass@mail.example.com:465', SMTP_FROM: 'Seaworthy <no-reply@example.com>' }
    expect(loadConfig({ ...base, ...mail, INVITATION_TTL_HOURS: '48', REFRESH_TOKEN_TTL_DAYS: '7' }).accounts).toEqual({
      invitationTtlHours: 48,
      refreshTokenTtlDays: 7,
      mail: { url: mail.SMTP_URL, from: mail.SMTP_FROM },
    })
    expect(() => loadConfig({ ...base, SMTP_URL: mail.SMTP_URL })).toThrow(
      new ConfigError('Invalid configuration: SMTP_URL and SMTP_FROM go together'),
    )
    expect(() => loadConfig({ ...base, SMTP_FROM: mail.SMTP_FROM })).toThrow(/SMTP_URL and SMTP_FROM go together/)
    expect(() => loadConfig({ ...base, ...mail, SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL/)
    expect(() => loadConfig({ ...base, REFRESH_TOKEN_TTL_DAYS: '0' })).toThrow(/REFRESH_TOKEN_TTL_DAYS/)
  })
})
