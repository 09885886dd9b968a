import type { Settings } from './organizations.schemas.js'

// DECISIONS §10 defaults. The stored settings hold only what an admin set, so a default applies
// to every organization that did not choose otherwise (and EXPIRING_SOON_DAYS keeps working).
export const DEFAULT_HORIZON_DAYS = 180
export const DEFAULT_NOTIFICATION_DAYS = [90, 60, 30, 7]

/** The per-type maps: a PATCH merges them entry by entry. */
export const PER_TYPE_MAPS = ['expiryWindowDays', 'validityMarginDays'] as const

/** The stored (sparse) settings with every default filled in. */
export function withDefaults(stored: Record<string, unknown>, defaultWindowDays: number): Settings {
  const s = stored as Partial<Settings>
  return {
    defaultExpiryWindowDays: s.defaultExpiryWindowDays ?? defaultWindowDays,
    expiryWindowDays: s.expiryWindowDays ?? {},
    validityMarginDays: s.validityMarginDays ?? {},
    openEndedHorizonDays: s.openEndedHorizonDays ?? DEFAULT_HORIZON_DAYS,
    expiryNotificationDays: s.expiryNotificationDays ?? DEFAULT_NOTIFICATION_DAYS,
  }
}
