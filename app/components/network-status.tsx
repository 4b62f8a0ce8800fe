import { useEffect, useState, useSyncExternalStore } from 'react'

function subscribe(onChange: () => void) {
  window.addEventListener('online', onChange)
  window.addEventListener('offline', onChange)
  return () => {
    window.removeEventListener('online', onChange)
    window.removeEventListener('offline', onChange)
  }
}

const BACK_ONLINE_NOTICE_MS = 3000

/** Tells the reader when the browser loses its connection, and briefly when it returns. */
export function NetworkStatus() {
  const online = useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  )
  const [wasOffline, setWasOffline] = useState(false)

  useEffect(() => {
    if (!online) {
      setWasOffline(true)
      return
    }
    const timer = setTimeout(() => setWasOffline(false), BACK_ONLINE_NOTICE_MS)
    return () => clearTimeout(timer)
  }, [online])

  return (
    <div
      role="status"
      aria-live="polite"
      className="fixed inset-x-0 bottom-4 z-50 flex justify-center px-4"
    >
      {!online && (
        <p
          data-network="offline"
          className="rounded-full bg-slate-900 px-4 py-2 text-sm text-white shadow-lg dark:bg-slate-100 dark:text-slate-900"
        >
          オフラインです。インターネット接続を確認してください。
        </p>
      )}
      {online && wasOffline && (
        <p
          data-network="online"
          className="rounded-full bg-emerald-700 px-4 py-2 text-sm text-white shadow-lg"
        >
          オンラインに戻りました。
        </p>
      )}
    </div>
  )
}
