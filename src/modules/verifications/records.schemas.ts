import Type from 'typebox'
import { Nullable } from '../../lib/schemas.js'

// Schema pieces shared by a user's crew records.

export const Notes = Nullable(Type.String({ maxLength: 5000 }))
/** Company, position, ship type, person names (DECISIONS §9). */
export const Text300 = Type.String({ minLength: 1, maxLength: 300 })
