// The Python runner: Pyodide in a dedicated Worker, loaded from our own server on the first
// Python run (browser-runner.ts), then kept for the runs after it; a run past its time limit
// terminates the worker and the page starts another (no SharedArrayBuffer interrupt: the site
// is not cross-origin isolated). A run's stdin, output, exits and limits are the server's
// (PYTHON_RUNNER below), so both give a program the same verdict.
import type { PyodideAPI } from 'pyodide'
import { MAX_OUTPUT_BYTES, MEMORY_LIMIT_BYTES } from '#features/exercises/code-run.ts'
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
  capWasmMemory(MEMORY_LIMIT_BYTES)
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

/**
 * Python's side of a run, as the server's runner does it (server/code-sandbox/runner.py), so
 * that a program gets the same verdict in both places: stdin as a file read with universal
 * newlines (`sys.stdin.buffer` and descriptor 0 too), stdout and stderr counted together
 * against MAX_OUTPUT_BYTES and ended at once past it, `sys.exit(0)` a normal end, sleeping
 * taking no time, and recursion capped where the server caps it.
 */
const PYTHON_RUNNER = `
import io, linecache, os, sys, time

_MAX_RECURSION = 10_000
_set_recursion_limit = sys.setrecursionlimit
_recursion_limit = sys.getrecursionlimit()


def _capped_recursion_limit(limit):
    if isinstance(limit, int) and limit > _MAX_RECURSION:
        limit = _MAX_RECURSION
    _set_recursion_limit(limit)


sys.setrecursionlimit = _capped_recursion_limit


def _sleep(seconds):
    if float(seconds) < 0:
        raise ValueError('sleep length must be non-negative')


time.sleep = _sleep


class _OutputLimit(BaseException):
    pass


class _Output(io.TextIOBase):
    def __init__(self, send, budget):
        self._send = send
        self._budget = budget

    def writable(self):
        return True

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f'write() argument must be str, not {type(text).__name__}')
        data = text.encode('utf-8', 'replace')
        if len(data) > self._budget[0]:
            # What fits and one character more: the page sees the cap passed, and stops.
            fits = data[: self._budget[0]].decode('utf-8', 'ignore')
            self._send(text[: len(fits) + 1])
            self._budget[0] = 0
            raise _OutputLimit()
        self._budget[0] -= len(data)
        if text:
            self._send(text)
        return len(text)

    def flush(self):
        pass


def _reopen_descriptors():
    # open(0) closes descriptor 0 with its file: the next run gets it back.
    for fd, device, flags in ((0, '/dev/stdin', os.O_RDONLY), (1, '/dev/stdout', os.O_WRONLY),
                              (2, '/dev/stderr', os.O_WRONLY)):
        try:
            os.fstat(fd)
        except OSError:
            reopened = os.open(device, flags)
            if reopened != fd:
                os.dup2(reopened, fd)
                os.close(reopened)


def run(code, stdin, globals, send_out, send_err, output_limit):
    """None when the program ended normally, else how it ended without a traceback."""
    budget = [output_limit]
    _reopen_descriptors()
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode('utf-8')), encoding='utf-8')
    sys.stdout = _Output(send_out, budget)
    sys.stderr = _Output(send_err, budget)
    _set_recursion_limit(_recursion_limit)
    linecache.cache['${LEARNER_FILE.python}'] = (len(code), None, code.splitlines(True), '${LEARNER_FILE.python}')
    try:
        exec(compile(code, '${LEARNER_FILE.python}', 'exec', dont_inherit=True), globals)
    except _OutputLimit:
        return None
    except SystemExit as error:
        if error.code not in (None, 0):
            return f'SystemExit: {error.code}'
    except KeyboardInterrupt:
        return 'KeyboardInterrupt'
    finally:
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    return None
`

const SPENT = new Set(['RecursionError', 'MemoryError'])

/** What descriptor 0 gives the run under way (open(0), os.read(0, n)). */
const stdinBytes = { bytes: new Uint8Array(), offset: 0 }

function setUp(pyodide: PyodideAPI) {
  let finished = true
  let written = 0
  const decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() }
  // Descriptors 1 and 2 (os.write(1, …)); sys.stdout and sys.stderr are the runner's own.
  const writer = (stream: OutputStream) => ({
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
  pyodide.setStdin({
    read(buffer: Uint8Array) {
      const count = Math.min(buffer.length, stdinBytes.bytes.length - stdinBytes.offset)
      buffer.set(stdinBytes.bytes.subarray(stdinBytes.offset, stdinBytes.offset + count))
      stdinBytes.offset += count
      return count
    },
    isatty: false,
  })
  // The runner's own names live in a namespace of their own, not the learner's globals.
  const runner = pyodide.globals.get('dict')()
  pyodide.runPython(PYTHON_RUNNER, { globals: runner, filename: 'runner.py' })
  const runProgram = runner.get('run')
  const send = (stream: OutputStream) => (text: string) => {
    if (!finished) post({ type: 'output', stream, text })
  }
  const sendOut = send('stdout')
  const sendErr = send('stderr')
  const newGlobals = () => {
    const globals = pyodide.globals.get('dict')()
    globals.set('__name__', '__main__')
    return globals
  }
  return (message: RunMessage) => {
    finished = false
    written = 0
    stdinBytes.bytes = new TextEncoder().encode(message.stdin)
    stdinBytes.offset = 0
    const globals = newGlobals()
    post({ type: 'started' })
    const startedAt = now()
    try {
      const ended: string | undefined = runProgram(
        message.code,
        message.stdin,
        globals,
        sendOut,
        sendErr,
        MAX_OUTPUT_BYTES,
      )
      finished = true
      post(
        ended
          ? {
              type: 'done',
              outcome: 'error',
              durationMs: now() - startedAt,
              error: { message: ended },
            }
          : { type: 'done', outcome: 'completed', durationMs: now() - startedAt },
      )
    } catch (error) {
      finished = true
      const text = error instanceof Error ? error.message : String(error)
      if (!(error instanceof pyodide.ffi.PythonError)) {
        // Pyodide itself failed (its stack overflowed, say) and can run nothing more: the
        // page replaces this worker.
        post({ type: 'failed', reason: text })
        return
      }
      post({
        type: 'done',
        outcome: 'error',
        durationMs: now() - startedAt,
        error: pythonError(text),
        // Past its recursion or memory limit, Pyodide is left in a state where the next run
        // may fail where the server's would not: a fresh worker serves it.
        ...(SPENT.has(error.type) && { replace: true }),
      })
    } finally {
      globals.destroy()
    }
  }
}

/** Ceiling on the WebAssembly memory, as on the server: Python's allocations past it get MemoryError. */
function capWasmMemory(maxBytes: number) {
  const grow = WebAssembly.Memory.prototype.grow
  WebAssembly.Memory.prototype.grow = function (this: WebAssembly.Memory, pages: number) {
    if (this.buffer.byteLength + pages * 65_536 > maxBytes) {
      throw new RangeError('the memory limit is reached')
    }
    return grow.call(this, pages)
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
