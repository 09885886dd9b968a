import { conflict } from './errors.js'

/** PostgreSQL's unique_violation, from pg and PGlite alike. */
export const isUniqueViolation = (error: unknown, constraint?: string) =>
  (error as { code?: string })?.code === '23505' &&
  (!constraint || String((error as { constraint?: string }).constraint ?? (error as Error).message).includes(constraint))

/** PostgreSQL's foreign_key_violation. */
export const isForeignKeyViolation = (error: unknown) => (error as { code?: string })?.code === '23503'

/** Awaits `write`, answering a unique violation (of `constraint`, when given) with a 409 saying `message`. */
export async function conflictOnDuplicate<T>(write: Promise<T>, message: string, constraint?: string): Promise<T> {
  try {
    return await write
  } catch (error) {
    if (isUniqueViolation(error, constraint)) throw conflict(message)
    throw error
  }
}

/** PostgreSQL's deadlock_detected and serialization_failure: the transaction was rolled back, and running it again may succeed. */
export const isTransient = (error: unknown) => ['40P01', '40001'].includes((error as { code?: string })?.code ?? '')

/**
 * Runs a write that stands alone (one statement, or a whole transaction) again when PostgreSQL broke a
 * deadlock by rolling it back, up to `attempts` times: writes that lock rows their triggers reach in
 * no fixed order (a person's sea-service totals) can meet another such write the other way round.
 */
export async function retryTransient<T>(write: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write()
    } catch (error) {
      if (!isTransient(error) || attempt >= attempts) throw error
    }
  }
}
