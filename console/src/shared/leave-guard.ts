import { createContext, useContext, useEffect } from 'react'
import { useBlocker } from 'react-router'

/** Tells the dialog around a form what to ask before it closes (null: close at once). */
export const DialogGuard = createContext<(question: string | null) => void>(() => undefined)

/**
 * While `question` is set, work is in flight that leaving would lose: closing or reloading the tab (the
 * browser's own question), a link to another screen and closing the dialog around the form ask first.
 */
export function useLeaveGuard(question: string | null): void {
  const setDialogGuard = useContext(DialogGuard)
  const blocker = useBlocker(question !== null)
  useEffect(() => {
    if (blocker.state !== 'blocked') return
    if (window.confirm(question ?? '')) blocker.proceed()
    else blocker.reset()
  }, [blocker, question])
  useEffect(() => {
    if (question === null) return
    setDialogGuard(question)
    const ask = (event: BeforeUnloadEvent) => event.preventDefault()
    window.addEventListener('beforeunload', ask)
    return () => {
      window.removeEventListener('beforeunload', ask)
      setDialogGuard(null)
    }
  }, [question, setDialogGuard])
}
