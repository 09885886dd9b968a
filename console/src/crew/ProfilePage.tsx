import { useParams } from 'react-router'
import { PersonProfile } from './PersonProfile.js'

export default function ProfilePage() {
  const { userId } = useParams()
  return <PersonProfile userId={userId ?? ''} />
}
