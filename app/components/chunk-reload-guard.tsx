import { useEffect } from 'react'
import { isChunkLoadError, reloadOnceAfterChunkError } from '#app/lib/chunk-reload.ts'

/** Listens for failed chunk loads (Vite's preload errors, failed dynamic imports). */
export function ChunkReloadGuard() {
  useEffect(() => {
    const reload = () => reloadOnceAfterChunkError(sessionStorage, () => window.location.reload())
    const onPreloadError = (event: Event) => {
      // Vite would rethrow otherwise; reloading is the recovery.
      event.preventDefault()
      reload()
    }
    const onRejection = (event: PromiseRejectionEvent) => {
      if (isChunkLoadError(event.reason)) reload()
    }
    window.addEventListener('vite:preloadError', onPreloadError)
    window.addEventListener('unhandledrejection', onRejection)
    return () => {
      window.removeEventListener('vite:preloadError', onPreloadError)
      window.removeEventListener('unhandledrejection', onRejection)
    }
  }, [])
  return null
}
