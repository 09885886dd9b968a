import { Button, type ButtonProps, Modal } from '@mantine/core'
import { useDisclosure, useMediaQuery } from '@mantine/hooks'
import type { ReactNode } from 'react'

/** A button opening a form in a dialog (the whole screen on a phone); the form closes it once saved. */
export function FormButton({
  label,
  title,
  children,
  ...button
}: { label: string; title: string; children: (close: () => void) => ReactNode } & Omit<ButtonProps, 'children'>) {
  const [opened, { open, close }] = useDisclosure(false)
  const phone = useMediaQuery('(max-width: 48em)')
  return (
    <>
      <Button onClick={open} {...button}>
        {label}
      </Button>
      <Modal opened={opened} onClose={close} title={title} size="lg" fullScreen={phone} closeButtonProps={{ 'aria-label': 'Close' }}>
        {opened && children(close)}
      </Modal>
    </>
  )
}
