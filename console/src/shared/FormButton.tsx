import { Button, type ButtonProps, Modal } from '@mantine/core'
import { useDisclosure, useMediaQuery } from '@mantine/hooks'
import { type ReactNode, useCallback, useRef } from 'react'
import { DialogGuard } from './leave-guard.js'

/**
 * A button opening a form in a dialog (the whole screen on a phone); the form closes it once saved. Closing
 * it while the form has work in flight (a scan uploading) asks first.
 */
export function FormButton({
  label,
  title,
  children,
  ...button
}: { label: string; title: string; children: (close: () => void) => ReactNode } & Omit<ButtonProps, 'children'>) {
  const [opened, { open, close }] = useDisclosure(false)
  const phone = useMediaQuery('(max-width: 48em)')
  const guard = useRef<string | null>(null)
  const setGuard = useCallback((question: string | null) => {
    guard.current = question
  }, [])
  const ask = () => (guard.current === null || window.confirm(guard.current)) && close()
  return (
    <>
      <Button onClick={open} {...button}>
        {label}
      </Button>
      <Modal opened={opened} onClose={ask} title={title} size="lg" fullScreen={phone} closeButtonProps={{ 'aria-label': 'Close' }}>
        <DialogGuard.Provider value={setGuard}>{opened && children(close)}</DialogGuard.Provider>
      </Modal>
    </>
  )
}
