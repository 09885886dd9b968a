/** An ILIKE pattern matching `text` anywhere, with LIKE's wildcards taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
