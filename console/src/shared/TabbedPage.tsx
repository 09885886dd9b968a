import { Stack, Tabs, Title } from '@mantine/core'
import type { ReactNode } from 'react'

export interface PageTab {
  value: string
  label: string
  content: ReactNode
  /** False leaves the tab out (the caller's role may not use it); absent: shown. */
  shown?: boolean
}

/** A screen of a few tabs under one title; only the open tab is mounted, so only it loads data. */
export function TabbedPage({ title, tabs: all }: { title: string; tabs: PageTab[] }) {
  const tabs = all.filter((t) => t.shown !== false)
  return (
    <Stack>
      <Title order={1} size="h2">
        {title}
      </Title>
      <Tabs defaultValue={tabs[0]?.value} keepMounted={false}>
        <Tabs.List>
          {tabs.map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {tabs.map((t) => (
          <Tabs.Panel key={t.value} value={t.value} pt="md">
            {t.content}
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  )
}
