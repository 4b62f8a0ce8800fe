// The page's one browser runner, loaded on first use (a page with code questions downloads the
// runner, and Pyodide, only when code is first run: the first-load budget, decision 029), and
// the progress of its runtimes' loading for every panel on the page.
import type { BrowserRunner, LoadProgress } from './browser-runner.ts'

type ProgressListener = (progress: LoadProgress) => void

const listeners = new Set<ProgressListener>()
let runner: Promise<BrowserRunner> | undefined

export function loadBrowserRunner(): Promise<BrowserRunner> {
  runner ??= import('./browser-runner.ts').then(
    (module) =>
      module.createBrowserRunner({
        onProgress: (progress) => {
          for (const listener of listeners) listener(progress)
        },
      }),
    (error: unknown) => {
      // A failed chunk load (offline, a new deployment) may succeed next time.
      runner = undefined
      throw error
    },
  )
  return runner
}

/** Calls `listener` with every loading step of a runtime until the returned function is called. */
export function onRunnerProgress(listener: ProgressListener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
