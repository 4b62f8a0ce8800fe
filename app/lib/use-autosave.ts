import { useCallback, useEffect, useMemo, useRef, useState } from 'react'

export type AutosaveState = 'saved' | 'dirty' | 'saving' | 'failed'

/** A moment after typing stops: long enough not to save every keystroke, short enough to feel live. */
export const AUTOSAVE_DELAY_MS = 800

export type Autosave<T> = {
  /** The value changed: save it once changes stop for a moment. */
  change(value: T): void
  /** Save a pending change now (before leaving, or before a change of structure). */
  flush(): Promise<void>
  state: AutosaveState
  /** Something typed has not reached the server (pending, or its save failed). */
  unsaved(): boolean
  /**
   * Saves what is on screen now (retrying a failed save) and answers whether the server has
   * it: publishing goes ahead only on true, so it never publishes an older version.
   */
  settle(): Promise<boolean>
}

/**
 * Saves the newest value a moment after it stops changing, one save at a time. A failed save
 * keeps the change unsaved (so leaving still warns) until the next change is saved.
 */
export function useAutosave<T>(save: (value: T) => Promise<void>): Autosave<T> {
  const [state, setState] = useState<AutosaveState>('saved')
  const pending = useRef<{ value: T } | undefined>(undefined)
  // The value whose save failed, kept so that the next flush tries it again.
  const failed = useRef<{ value: T } | undefined>(undefined)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const running = useRef<Promise<void>>(Promise.resolve())
  const saveRef = useRef(save)
  saveRef.current = save

  const flush = useCallback((): Promise<void> => {
    clearTimeout(timer.current)
    const next = pending.current ?? failed.current
    if (!next) return running.current
    pending.current = undefined
    failed.current = undefined
    running.current = running.current.then(async () => {
      setState('saving')
      try {
        await saveRef.current(next.value)
        setState(pending.current ? 'dirty' : 'saved')
      } catch {
        // A newer change supersedes the failed one; it is retried only if nothing followed.
        if (!pending.current) failed.current = next
        setState('failed')
      }
    })
    return running.current
  }, [])

  const change = useCallback(
    (value: T) => {
      pending.current = { value }
      setState('dirty')
      clearTimeout(timer.current)
      timer.current = setTimeout(() => void flush(), AUTOSAVE_DELAY_MS)
    },
    [flush],
  )

  useEffect(() => () => clearTimeout(timer.current), [])
  const unsaved = useCallback(
    () => pending.current !== undefined || failed.current !== undefined,
    [],
  )
  const settle = useCallback(async () => {
    await flush()
    // A change typed while that save ran is on screen too: save it before answering.
    if (pending.current) await flush()
    return !unsaved()
  }, [flush, unsaved])

  return useMemo(
    () => ({ change, flush, state, unsaved, settle }),
    [change, flush, state, unsaved, settle],
  )
}
