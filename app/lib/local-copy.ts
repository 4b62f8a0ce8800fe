import { useCallback, useEffect, useRef, useState } from 'react'

/** Every editor that keeps a local copy of what its author typed. */
export const LOCAL_COPY_KINDS = [
  'course',
  'lesson',
  'study',
  'lab',
  'lab_story',
  'question',
] as const
export type LocalCopyKind = (typeof LOCAL_COPY_KINDS)[number]

/** What browser storage offers (localStorage), narrowed to what a local copy needs. */
export type CopyStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>

/**
 * A form's fields as they were typed, when, and the item's revision they were based on: a
 * copy based on a revision the server has moved past (another tab or device saved since) is
 * not put back over that newer text.
 */
export type LocalCopy<T> = { value: T; at: number; revision?: number }

const PREFIX = 'techlab.local-copy.'

/**
 * Where an editor's copy lives: per kind and item; an item not created yet is `new` within its
 * scope (a new question belongs to its study), so two create pages of one kind share a copy.
 */
export function localCopyKey(kind: LocalCopyKind, id: string | undefined, scope = ''): string {
  return `${PREFIX}${kind}.${id ?? `new${scope ? `.${scope}` : ''}`}`
}

/** Keeps what was typed; full or blocked storage only means no copy, never a failed edit. */
export function writeLocalCopy<T>(
  store: CopyStore,
  key: string,
  value: T,
  at: number,
  revision?: number,
): void {
  try {
    store.setItem(key, JSON.stringify({ value, at, revision } satisfies LocalCopy<T>))
  } catch {
    // Nothing to do: the server's autosave still runs.
  }
}

/** The copy at `key`, or undefined when there is none or it cannot be read (then it is dropped). */
export function readLocalCopy<T>(store: CopyStore, key: string): LocalCopy<T> | undefined {
  let text: string | null
  try {
    text = store.getItem(key)
  } catch {
    return undefined
  }
  if (text === null) return undefined
  try {
    const copy = JSON.parse(text) as Partial<LocalCopy<T>>
    if (typeof copy.at === 'number' && copy.value !== undefined && copy.value !== null) {
      return typeof copy.revision === 'number'
        ? { value: copy.value, at: copy.at, revision: copy.revision }
        : { value: copy.value, at: copy.at }
    }
  } catch {
    // Written by another version of the site, or damaged: not worth restoring.
  }
  removeLocalCopy(store, key)
  return undefined
}

export function removeLocalCopy(store: CopyStore, key: string): void {
  try {
    store.removeItem(key)
  } catch {
    // Storage blocked: there was nothing to remove.
  }
}

/** Equal as saved: the same fields with the same values (JSON's order of keys is the form's). */
function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

/**
 * The copy to restore over what the server has: only one that differs from it (the same text
 * means the last save did arrive), with the server's fields under any the copy lacks.
 */
export function copyToRestore<T extends object>(
  copy: LocalCopy<Partial<T>> | undefined,
  server: T,
  serverRevision?: number,
): LocalCopy<T> | undefined {
  if (!copy || typeof copy.value !== 'object') return undefined
  if (
    copy.revision !== undefined &&
    serverRevision !== undefined &&
    copy.revision !== serverRevision
  ) {
    return undefined
  }
  const value = { ...server, ...copy.value }
  return same(value, server) ? undefined : { value, at: copy.at }
}

/** After a save: drops the copy if it holds exactly what the server now has. */
export function forgetSavedCopy<T>(store: CopyStore, key: string, saved: T): void {
  const copy = readLocalCopy<T>(store, key)
  if (copy && same(copy.value, saved)) removeLocalCopy(store, key)
}

function browserStore(): CopyStore | undefined {
  try {
    return window.localStorage
  } catch {
    return undefined
  }
}

/** Drops an item's copy in this browser (its edits were discarded on purpose). */
export function forgetLocalCopy(kind: LocalCopyKind, id: string): void {
  const store = browserStore()
  if (store) removeLocalCopy(store, localCopyKey(kind, id))
}

export type LocalCopyControl<T> = {
  /** When the restored copy was typed, while it is shown; undefined when nothing was restored. */
  restoredAt: number | undefined
  /** Keep the form's fields as typed now, based on the item's revision `revision`. */
  remember(value: T, revision?: number): void
  /** The server has these fields now. */
  saved(value: T): void
  /** The item was created: its copy is kept under its id from now on. */
  created(id: string): void
  /** Drop the restored copy and go back to the server's fields. */
  discard(): void
  /** The author has seen the notice and keeps the restored text. */
  dismiss(): void
  /** The form went back to the server's fields by the author's choice: no copy, no notice. */
  clear(): void
}

/**
 * Every editor's copy of its fields in this browser, so text that did not reach the server (a
 * closed tab, a crash, a failed save) survives a reload: restored with a notice the author may
 * undo. `restore` puts fields into the form as if typed (so they are saved too).
 */
export function useLocalCopy<T extends object>(options: {
  kind: LocalCopyKind
  id: string | undefined
  scope?: string
  /** The fields as the page loaded them from the server, and the item's revision then. */
  server: T
  revision?: number
  restore(value: T): void
}): LocalCopyControl<T> {
  const key = useRef(localCopyKey(options.kind, options.id, options.scope))
  const [restoredAt, setRestoredAt] = useState<number | undefined>()
  const server = useRef(options.server)
  const serverRevision = useRef(options.revision)
  const restore = useRef(options.restore)
  restore.current = options.restore

  // After hydration only: the server renders without browser storage.
  useEffect(() => {
    const store = browserStore()
    if (!store) return
    const copy = copyToRestore(
      readLocalCopy<Partial<T>>(store, key.current),
      server.current,
      serverRevision.current,
    )
    if (!copy) {
      removeLocalCopy(store, key.current)
      return
    }
    setRestoredAt(copy.at)
    restore.current(copy.value)
  }, [])

  const remember = useCallback((value: T, revision?: number) => {
    const store = browserStore()
    if (store) writeLocalCopy(store, key.current, value, Date.now(), revision)
  }, [])
  const saved = useCallback((value: T) => {
    const store = browserStore()
    if (store) forgetSavedCopy(store, key.current, value)
  }, [])
  const created = useCallback(
    (id: string) => {
      const store = browserStore()
      const next = localCopyKey(options.kind, id)
      if (store && next !== key.current) {
        const copy = readLocalCopy<T>(store, key.current)
        removeLocalCopy(store, key.current)
        if (copy) writeLocalCopy(store, next, copy.value, copy.at, copy.revision)
      }
      key.current = next
    },
    [options.kind],
  )
  const discard = useCallback(() => {
    const store = browserStore()
    if (store) removeLocalCopy(store, key.current)
    setRestoredAt(undefined)
    restore.current(server.current)
  }, [])
  const dismiss = useCallback(() => setRestoredAt(undefined), [])
  const clear = useCallback(() => {
    const store = browserStore()
    if (store) removeLocalCopy(store, key.current)
    setRestoredAt(undefined)
  }, [])
  return { restoredAt, remember, saved, created, discard, dismiss, clear }
}
