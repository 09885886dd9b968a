import { Button, Group, Text } from '@mantine/core'
import { useState } from 'react'
import { BAD } from './colours.js'

/** A button for an action that cannot be undone: it asks once more, in words, before acting. */
export function ConfirmButton({
  label,
  question,
  onConfirm,
  loading,
}: {
  label: string
  question: string
  onConfirm: () => void
  loading: boolean
}) {
  const [asking, setAsking] = useState(false)
  if (!asking) {
    return (
      <Button color={BAD} variant="outline" onClick={() => setAsking(true)}>
        {label}
      </Button>
    )
  }
  return (
    <Group gap="xs" role="group" aria-label={question}>
      <Text size="sm">{question}</Text>
      <Button
        color={BAD}
        loading={loading}
        onClick={() => {
          onConfirm()
          setAsking(false)
        }}
        data-autofocus
      >
        Yes, {label.toLowerCase()}
      </Button>
      <Button variant="default" onClick={() => setAsking(false)}>
        Cancel
      </Button>
    </Group>
  )
}
