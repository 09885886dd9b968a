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
