import { describe, expect, it, vi } from 'vitest'
import {
  CHUNK_RELOAD_INTERVAL_MS,
  isChunkLoadError,
  mayReload,
  reloadOnceAfterChunkError,
} from './chunk-reload.ts'

/** An in-memory stand-in for sessionStorage. */
function memoryStore() {
  const values = new Map<string, string>()
  return {
    values,
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => {
      values.set(key, value)
    },
  }
}

describe('isChunkLoadError', () => {
  it.each([
    [
      'Chromium',
      'Failed to fetch dynamically imported module: https://techlab.example/assets/catalogue-B9x3.js',
    ],
    [
      'Firefox',
      'error loading dynamically imported module: https://techlab.example/assets/catalogue-B9x3.js',
    ],
    ['Safari', 'Importing a module script failed.'],
    ['Vite CSS preload', 'Unable to preload CSS for /assets/catalogue-B9x3.css'],
  ])('recognises the %s message', (_browser, message) => {
    expect(isChunkLoadError(new TypeError(message))).toBe(true)
    expect(isChunkLoadError(message)).toBe(true)
  })

  it('rejects other errors and non-errors', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch'))).toBe(false)
    expect(isChunkLoadError(new Error("Cannot read properties of undefined (reading 'x')"))).toBe(
      false,
    )
    expect(isChunkLoadError(undefined)).toBe(false)
    expect(isChunkLoadError(null)).toBe(false)
    expect(isChunkLoadError({ message: 'Importing a module script failed.' })).toBe(false)
  })
})

describe('mayReload', () => {
  it('allows the first reload', () => {
    expect(mayReload(1_000, null)).toBe(true)
  })

  it('allows another reload only after a full minute', () => {
    expect(CHUNK_RELOAD_INTERVAL_MS).toBe(60_000)
    const last = 1_700_000_000_000
    expect(mayReload(last, last)).toBe(false)
    expect(mayReload(last + 59_999, last)).toBe(false)
    expect(mayReload(last + 60_000, last)).toBe(true)
  })
})

describe('reloadOnceAfterChunkError', () => {
  const start = 1_700_000_000_000

  it('reloads on the first error and remembers when', () => {
    const store = memoryStore()
    const reload = vi.fn()
    expect(reloadOnceAfterChunkError(store, reload, start)).toBe(true)
    expect(reload).toHaveBeenCalledOnce()
    expect([...store.values.values()]).toEqual([String(start)])
  })

  it('does not reload again within a minute, and does after one', () => {
    const store = memoryStore()
    const reload = vi.fn()
    reloadOnceAfterChunkError(store, reload, start)

    expect(reloadOnceAfterChunkError(store, reload, start + 59_999)).toBe(false)
    expect(reload).toHaveBeenCalledTimes(1)

    expect(reloadOnceAfterChunkError(store, reload, start + 60_000)).toBe(true)
    expect(reload).toHaveBeenCalledTimes(2)

    // The minute counts from the latest reload.
    expect(reloadOnceAfterChunkError(store, reload, start + 60_000 + 30_000)).toBe(false)
    expect(reload).toHaveBeenCalledTimes(2)
  })

  it('treats an unreadable stored value as no previous reload', () => {
    const store = memoryStore()
    const reload = vi.fn()
    reloadOnceAfterChunkError(store, reload, start)
    for (const key of store.values.keys()) store.values.set(key, 'garbage')
    expect(reloadOnceAfterChunkError(store, reload, start + 1)).toBe(true)
    expect(reload).toHaveBeenCalledTimes(2)
  })
})
