import { useCan } from '../shared/permissions.js'
import { TabbedPage } from '../shared/TabbedPage.js'
import { CoursesTab } from './CoursesTab.js'
import { CurriculumsTab } from './CurriculumsTab.js'
import { DifficultyTab } from './DifficultyTab.js'

export default function LearningPage() {
  const can = useCan()
  return (
    <TabbedPage
      title="Learning"
      tabs={[
        { value: 'courses', label: 'Courses', content: <CoursesTab /> },
        { value: 'curriculums', label: 'Curriculums', content: <CurriculumsTab /> },
        { value: 'difficulty', label: 'Course difficulty', content: <DifficultyTab />, shown: can('learn:analytics') },
      ]}
    />
  )
}
