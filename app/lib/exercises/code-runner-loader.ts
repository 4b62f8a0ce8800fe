import type { CodeRunner } from '#features/exercises/code-run.ts'

type BrowserRunner = { run: CodeRunner }
let runner: Promise<BrowserRunner> | undefined

/**
 * The browser's code runner (Workers, app/lib/code-runner), loaded on first use: a page with
 * code questions downloads it, and Pyodide, only when code is first run (the first-load budget).
 */
export function loadCodeRunner(): Promise<CodeRunner> {
  runner ??= import('#app/lib/code-runner/browser-runner.ts').then(
    (module) => module.createBrowserRunner(),
    (error: unknown) => {
      runner = undefined
      throw error
    },
  )
  return runner.then((loaded) => loaded.run)
}
