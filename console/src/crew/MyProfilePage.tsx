import { useSession } from '../auth/session.js'
import { PersonProfile } from './PersonProfile.js'

export default function MyProfilePage() {
  return <PersonProfile userId={useSession().me.user.id} />
}
