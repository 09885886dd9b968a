import { type ExpressionBuilder, type Selectable, sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { DB, UsersTable } from '../../../db/schema.js'
import { newestFirstPage } from '../../../lib/pagination.js'
import { activeOn } from '../assignments/assignments.queries.js'
import { toUser } from '../../accounts/users/users.queries.js'
import { profileState, userMatches, usersWithProfileState } from '../verifications/verifications.queries.js'
import type { ProfileState } from '../verifications/verifications.schemas.js'
import type { RosterQuery, RosterUser } from './roster.schemas.js'

type RosterRow = Selectable<UsersTable> & { verification_state: ProfileState }

// The serializer leaves out organizationId, which the roster does not show.
const toRosterUser = (row: RosterRow): RosterUser => ({ ...toUser(row), verificationState: row.verification_state })

/** Assigned: the user has an assignment that is active (endDate null or not yet passed, as isActive). */
const hasActiveAssignment = (eb: ExpressionBuilder<DB, 'users'>, orgId: string) =>
  eb.exists(
    eb
      .selectFrom('assignments')
      .select(sql`1`.as('one'))
      .where('assignments.organization_id', '=', orgId)
      .whereRef('assignments.user_id', '=', 'users.id')
      .where(activeOn('assignments')),
  )

/** The organization's users with their verification state, computed for the whole page in one statement. */
export function listRoster(db: Db, orgId: string, query: RosterQuery) {
  let filtered = usersWithProfileState(db, orgId)
  if (query.role) filtered = filtered.where('users.role', '=', query.role)
  if (query.state) filtered = filtered.where('users.state', '=', query.state)
  if (query.verification_state) filtered = filtered.where(profileState, '=', query.verification_state)
  const assignment = query.assignment_status
  if (assignment) {
    filtered = filtered.where((eb) => (assignment === 'assigned' ? hasActiveAssignment(eb, orgId) : eb.not(hasActiveAssignment(eb, orgId))))
  }
  const search = query.search
  if (search) filtered = filtered.where((eb) => userMatches(eb, search))
  return newestFirstPage(
    filtered,
    (qb) => qb.selectAll('users').select(profileState.as('verification_state')),
    'users',
    query,
    toRosterUser,
  )
}
