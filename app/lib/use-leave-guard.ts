import { type ReactNode, useEffect, useRef } from 'react'
import { useBlocker } from 'react-router'
import { useConfirm } from '#app/components/confirm-dialog.tsx'
import { isMoveAfterCreate } from './editor-address.ts'

/** Set by a reload the user already answered for (the conflict banner): no second question. */
let answeredReload = false

/** Reloads the page without the leave guard's question: the caller has asked already. */
export function reloadAfterAsking(): void {
  answeredReload = true
  window.location.reload()
}

/**
 * Leaving an editor saves what is pending first; if something still did not reach the server,
 * the user is asked before leaving (in-app navigation in the site's dialog, which the editor
 * renders from the returned element; closing or reloading the tab in the browser's own).
 */
export function useLeaveGuard(options: { unsaved(): boolean; flush(): Promise<void> }): ReactNode {
  const { unsaved, flush } = options
  const [confirm, confirmDialog] = useConfirm()
  const blocker = useBlocker(({ currentLocation, nextLocation }) => {
    // The editor moving to its new draft's address stays mounted: nothing is left behind.
    if (isMoveAfterCreate(nextLocation)) return false
    return currentLocation.pathname !== nextLocation.pathname && unsaved()
  })

  // The editor re-renders while a blocked navigation waits for the flush; one answer per block.
  const answering = useRef(false)
  useEffect(() => {
    if (blocker.state !== 'blocked' || answering.current) return
    answering.current = true
    void flush().then(async () => {
      const leave =
        !unsaved() ||
        (await confirm({
          title: 'このページを離れますか？',
          body: '保存されていない変更があります。離れると、その変更は失われます。',
          confirmLabel: '離れる',
        }))
      answering.current = false
      if (leave) blocker.proceed()
      else blocker.reset()
    })
  }, [blocker, flush, unsaved, confirm])

  useEffect(() => {
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (answeredReload || !unsaved()) return
      void flush()
      event.preventDefault()
    }
    // A hidden tab may never come back (closed on a phone): save what is pending now.
    const hidden = () => {
      if (document.visibilityState === 'hidden') void flush()
    }
    window.addEventListener('beforeunload', beforeUnload)
    document.addEventListener('visibilitychange', hidden)
    return () => {
      window.removeEventListener('beforeunload', beforeUnload)
      document.removeEventListener('visibilitychange', hidden)
    }
  }, [flush, unsaved])
  return confirmDialog
}
