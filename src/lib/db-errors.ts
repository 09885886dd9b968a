/** PostgreSQL's unique_violation, from pg and PGlite alike. */
export const isUniqueViolation = (error: unknown, constraint?: string) =>
  (error as { code?: string })?.code === '23505' &&
  (!constraint || String((error as { constraint?: string }).constraint ?? (error as Error).message).includes(constraint))

/** PostgreSQL's foreign_key_violation. */
export const isForeignKeyViolation = (error: unknown) => (error as { code?: string })?.code === '23503'
