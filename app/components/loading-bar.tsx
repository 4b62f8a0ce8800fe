import { useEffect, useRef, useSyncExternalStore } from 'react'
import { useFetchers, useNavigation } from 'react-router'
import { type LoadingBarSnapshot, loadingProgress } from '#app/lib/loading-progress.ts'

const HIDDEN: LoadingBarSnapshot = { state: 'hidden', progress: 0 }

/** The thin bar at the top of the page while navigations and requests are under way. */
export function LoadingBar() {
  useRouterActivity()
  const snapshot = useSyncExternalStore(
    loadingProgress.subscribe,
    loadingProgress.getSnapshot,
    () => HIDDEN,
  )
  const bar = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (snapshot.state !== 'shown') return
    let frame = 0
    const draw = () => {
      if (bar.current)
        bar.current.style.transform = `scaleX(${loadingProgress.progressNow() / 100})`
      frame = requestAnimationFrame(draw)
    }
    draw()
    return () => cancelAnimationFrame(frame)
  }, [snapshot.state])

  if (snapshot.state === 'hidden') return null
  const failed = snapshot.state === 'failed'
  // In a landmark of its own: it sits outside the page's header and main (axe's region rule).
  return (
    <aside aria-label="読み込みの状態">
      <div
        role="progressbar"
        aria-label="読み込み中"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(snapshot.progress)}
        data-state={snapshot.state}
        className="pointer-events-none fixed inset-x-0 top-0 z-50 h-1"
      >
        <div
          ref={bar}
          className={`h-full origin-left transition-transform duration-200 ${failed ? 'bg-red-500' : 'bg-brand-500'}`}
          style={{ transform: `scaleX(${snapshot.progress / 100})` }}
        />
      </div>
    </aside>
  )
}

/** Reports router navigations and fetcher submissions to the loading bar. */
function useRouterActivity() {
  const navigation = useNavigation()
  const fetchers = useFetchers()
  const busy = navigation.state !== 'idle' || fetchers.some((fetcher) => fetcher.state !== 'idle')
  useEffect(() => {
    if (!busy) return
    loadingProgress.start()
    return () => loadingProgress.finish()
  }, [busy])
}
