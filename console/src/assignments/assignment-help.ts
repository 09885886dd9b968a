/** The form's words for the fields people asked about. */
export const DUE_HELP = "The assignment's courses must be passed by then (on or after Start); after it, one not passed blocks readiness."
export const ROLE_HELP = 'Ranks of the requirements matrix and roles used before; a role the matrix does not name has no requirements.'
