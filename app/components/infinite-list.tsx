import { type ReactNode, useEffect, useRef, useState, useSyncExternalStore } from 'react'
import {
  INFINITE_SCROLL,
  INFINITE_SCROLL_TEXTS,
  InfiniteLoader,
  type PageResult,
  throttle,
} from '#app/lib/infinite-loader.ts'

type Texts = Partial<typeof INFINITE_SCROLL_TEXTS>

/**
 * A list that loads more as the reader scrolls near its end. The first page arrives with the
 * server-rendered HTML; later pages come from `fetchPage`.
 */
export function InfiniteList<T>(props: {
  firstPage: PageResult<T>
  fetchPage: (cursor: string) => Promise<PageResult<T>>
  renderItem: (item: T) => ReactNode
  getKey: (item: T) => string
  label: string
  texts?: Texts
  className?: string
}) {
  const texts = { ...INFINITE_SCROLL_TEXTS, ...props.texts }
  const [loader] = useState(() => new InfiniteLoader(props.firstPage, props.fetchPage))
  const snapshot = useSyncExternalStore(loader.subscribe, loader.getSnapshot, loader.getSnapshot)
  const end = useRef<HTMLDivElement>(null)

  useEffect(() => {
    const check = throttle(() => {
      const sentinel = end.current
      if (!sentinel) return
      const distance = sentinel.getBoundingClientRect().top - window.innerHeight
      if (distance <= INFINITE_SCROLL.distancePx) void loader.trigger()
    }, INFINITE_SCROLL.throttleMs)
    window.addEventListener('scroll', check, { passive: true })
    window.addEventListener('resize', check)
    // A short first page may not fill the screen: check again after every change.
    const unsubscribe = loader.subscribe(check)
    check()
    return () => {
      check.cancel()
      unsubscribe()
      window.removeEventListener('scroll', check)
      window.removeEventListener('resize', check)
    }
  }, [loader])

  const { items, state, loopStopped } = snapshot
  return (
    <section aria-label={props.label} aria-busy={state === 'loading'}>
      <ul className={props.className}>
        {items.map((item) => (
          <li key={props.getKey(item)}>{props.renderItem(item)}</li>
        ))}
      </ul>
      <div
        ref={end}
        data-state={state}
        className="py-8 text-center text-sm text-slate-500 dark:text-slate-400"
      >
        {state === 'loading' && (
          <span role="status" className="inline-flex items-center gap-2">
            <span
              className="size-4 animate-spin rounded-full border-2 border-brand-500 border-t-transparent"
              aria-hidden="true"
            />
            読み込み中…
          </span>
        )}
        {state === 'complete' && (
          <p role="status">{items.length === 0 ? texts.noResults : texts.noMore}</p>
        )}
        {state === 'error' && (
          <div role="alert" className="flex flex-col items-center gap-2">
            <p>{texts.error}</p>
            <button
              type="button"
              onClick={() => void loader.retry()}
              className="rounded-md border border-slate-300 px-3 py-1 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
            >
              {texts.retry}
            </button>
          </div>
        )}
        {state === 'ready' && loopStopped && (
          <button
            type="button"
            onClick={() => void loader.retry()}
            className="rounded-md border border-slate-300 px-3 py-1 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
          >
            さらに読み込む
          </button>
        )}
      </div>
    </section>
  )
}
