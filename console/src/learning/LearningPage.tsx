import { useCan } from '../shared/permissions.js'
import { TabbedPage } from '../shared/TabbedPage.js'
import { CourseDetailTab } from './CourseDetailTab.js'
import { CoursesTab } from './CoursesTab.js'
import { CurriculumsTab } from './CurriculumsTab.js'
import { DifficultyTab } from './DifficultyTab.js'
import { ImportTab } from './ImportTab.js'

export default function LearningPage() {
  const can = useCan()
  return (
    <TabbedPage
      title="Learning"
      tabs={[
        { value: 'courses', label: 'Courses', content: <CoursesTab /> },
        { value: 'course', label: 'Course packages', content: <CourseDetailTab /> },
        { value: 'import', label: 'Import', content: <ImportTab />, shown: can('learn:courses:write') },
        { value: 'curriculums', label: 'Curriculums', content: <CurriculumsTab /> },
        { value: 'difficulty', label: 'Course difficulty', content: <DifficultyTab />, shown: can('learn:analytics') },
      ]}
    />
  )
}
