/** The columns a request sets: an omitted field (undefined) is left out, an explicit null is kept (it clears). */
export const definedOnly = <T extends object>(columns: T): Partial<T> =>
  Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined)) as Partial<T>
