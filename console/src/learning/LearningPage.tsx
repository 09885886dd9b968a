import { Stack, Tabs, Title } from '@mantine/core'
import { CoursesTab } from './CoursesTab.js'
import { CurriculumsTab } from './CurriculumsTab.js'
import { DifficultyTab } from './DifficultyTab.js'

export default function LearningPage() {
  return (
    <Stack>
      <Title order={1} size="h2">
        Learning
      </Title>
      <Tabs defaultValue="courses" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="courses">Courses</Tabs.Tab>
          <Tabs.Tab value="curriculums">Curriculums</Tabs.Tab>
          <Tabs.Tab value="difficulty">Course difficulty</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="courses" pt="md">
          <CoursesTab />
        </Tabs.Panel>
        <Tabs.Panel value="curriculums" pt="md">
          <CurriculumsTab />
        </Tabs.Panel>
        <Tabs.Panel value="difficulty" pt="md">
          <DifficultyTab />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  )
}
