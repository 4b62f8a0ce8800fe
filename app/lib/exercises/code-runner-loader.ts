import type { LoadProgress } from '#app/lib/code-runner/browser-runner.ts'
import type { CodeRunner } from '#features/exercises/code-run.ts'

type BrowserRunner = { run: CodeRunner }
let runner: Promise<BrowserRunner> | undefined
const listeners = new Set<(progress: LoadProgress) => void>()

/**
 * The page's one browser code runner (Workers, app/lib/code-runner), loaded on first use: a
 * page with code questions downloads it, and Pyodide, only when code is first run (the
 * first-load budget).
 */
export function loadCodeRunner(): Promise<CodeRunner> {
  runner ??= import('#app/lib/code-runner/browser-runner.ts').then(
    (module) =>
      module.createBrowserRunner({
        onProgress: (progress) => {
          for (const listener of listeners) listener(progress)
        },
      }),
    (error: unknown) => {
      runner = undefined
      throw error
    },
  )
  return runner.then((loaded) => loaded.run)
}

/** Hears the runtimes' loading progress (Pyodide's bytes); returns the unsubscribe. */
export function onRunnerProgress(listener: (progress: LoadProgress) => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
