// The Python runner: Pyodide in a dedicated Worker, loaded from our own server on the first
// Python run (browser-runner.ts), then kept for the runs after it; a run past its time limit
// terminates the worker and the page starts another (no SharedArrayBuffer interrupt: the site
// is not cross-origin isolated). stdin through sys.stdin (input() reads it; EOFError at its
// end), stdout and stderr line by line to the page.
import type { PyodideAPI } from 'pyodide'
import { MAX_OUTPUT_BYTES } from '#features/exercises/code-run.ts'
import {
  PYODIDE_FILES,
  PYODIDE_MANIFEST,
  PYODIDE_PATH,
  type PyodideManifest,
} from '#features/exercises/runner-assets.ts'
import { LEARNER_FILE, pythonError } from './error-report.ts'
import type { OutputStream, RunMessage, WorkerMessage } from './protocol.ts'
import { lockDown } from './sandbox.ts'

type Post = (message: WorkerMessage) => void
const startedLoading = performance.now()
const now = performance.now.bind(performance)
// Until Pyodide is loaded the worker needs postMessage and fetch; lockDown takes them away.
let post: Post = (message) => postMessage(message)

const runs: RunMessage[] = []
let python: ((message: RunMessage) => void) | undefined
addEventListener('message', (event) => {
  const message = (event as MessageEvent<RunMessage>).data
  if (message?.type !== 'run') return
  if (python) python(message)
  else runs.push(message)
})

/**
 * Counts the bytes of Pyodide's files as they arrive (decoded), for the page's progress bar:
 * wraps fetch for the length of the load only.
 */
function countingFetch(manifest: PyodideManifest, original: typeof fetch): typeof fetch {
  // The two modules arrive by import(), not fetch: the bar follows the files fetch loads (the
  // WebAssembly binary and the standard library are nearly all of the bytes).
  const total = Object.entries(manifest.files)
    .filter(([name]) => !name.endsWith('.mjs'))
    .reduce((sum, [, size]) => sum + size, 0)
  let loaded = 0
  let reported = 0
  const report = () => {
    // A message per ~1% is plenty for a progress bar.
    if (loaded - reported < total / 100 && loaded < total) return
    reported = loaded
    post({ type: 'progress', loaded: Math.min(loaded, total), total })
  }
  return async (input, init) => {
    const response = await original(input, init)
    const copy = response.clone().body
    if (!copy) return response
    // The count reads a copy: the original response goes to Pyodide as it came, so that the
    // WebAssembly binary compiles as it streams in and Chromium can cache its compiled code
    // (a Response built here has no URL, and would be compiled afresh on every load).
    void (async () => {
      const reader = copy.getReader()
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        loaded += value.byteLength
        report()
      }
    })().catch(() => {})
    return response
  }
}

function transferredBytes(): number {
  return performance
    .getEntriesByType('resource')
    .filter((entry) => entry.name.includes(PYODIDE_PATH))
    .reduce((sum, entry) => sum + ((entry as PerformanceResourceTiming).transferSize ?? 0), 0)
}

async function load(): Promise<PyodideAPI> {
  const manifest = (await (
    await fetch(`${PYODIDE_PATH}${PYODIDE_MANIFEST}`)
  ).json()) as PyodideManifest
  const original = fetch
  globalThis.fetch = countingFetch(manifest, original)
  const { loadPyodide } = (await import(
    /* @vite-ignore */ `${PYODIDE_PATH}${PYODIDE_FILES[0]}`
  )) as typeof import('pyodide')
  const pyodide = await loadPyodide({ indexURL: PYODIDE_PATH, checkAPIVersion: true })
  globalThis.fetch = original
  return pyodide
}

function setUp(pyodide: PyodideAPI) {
  let finished = true
  let written = 0
  const decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() }
  const writer = (stream: OutputStream) => ({
    // A terminal's line buffering: what a program prints before it loops forever is shown.
    isatty: true,
    write(buffer: Uint8Array) {
      if (!finished && written <= MAX_OUTPUT_BYTES) {
        const text = decoders[stream].decode(buffer, { stream: true })
        written += buffer.byteLength
        if (text) post({ type: 'output', stream, text })
      }
      return buffer.byteLength
    },
  })
  pyodide.setStdout(writer('stdout'))
  pyodide.setStderr(writer('stderr'))
  // The runner's own names live in a namespace of their own, not the learner's globals.
  const runner = pyodide.globals.get('dict')()
  pyodide.runPython(
    `
import io, sys
def prepare(text):
    sys.stdin = io.StringIO(text)
def flush():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
`,
    { globals: runner },
  )
  const prepare = runner.get('prepare')
  const flush = runner.get('flush')
  const newGlobals = () => {
    const globals = pyodide.globals.get('dict')()
    globals.set('__name__', '__main__')
    return globals
  }
  return (message: RunMessage) => {
    finished = false
    written = 0
    prepare(message.stdin)
    const globals = newGlobals()
    post({ type: 'started' })
    const startedAt = now()
    try {
      pyodide.runPython(message.code, { globals, filename: LEARNER_FILE.python })
      flush()
      finished = true
      post({ type: 'done', outcome: 'completed', durationMs: now() - startedAt })
    } catch (error) {
      flush()
      finished = true
      const text = error instanceof Error ? error.message : String(error)
      post({
        type: 'done',
        outcome: 'error',
        durationMs: now() - startedAt,
        error: pythonError(text),
      })
    } finally {
      globals.destroy()
    }
  }
}

load().then(
  (pyodide) => {
    const run = setUp(pyodide)
    post = lockDown() as Post
    post({
      type: 'ready',
      stats: { loadMs: now() - startedLoading, transferBytes: transferredBytes() },
    })
    python = run
    for (const message of runs.splice(0)) run(message)
  },
  (error: unknown) => {
    post({ type: 'failed', reason: error instanceof Error ? error.message : String(error) })
  },
)
