// Pyodide with runner.py, called in this thread: what a Python child process runs
// (pyodide-worker.ts), and the bench's baseline of the same engine without the isolation.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { getHeapStatistics } from 'node:v8'
import { loadPyodide, type PyodideAPI } from 'pyodide'
import type { CodeRunRequest, CodeRunResult } from '#features/exercises/code-run.ts'
import { MAX_OUTPUT_BYTES } from '#features/exercises/code-run.ts'

const require = createRequire(import.meta.url)

/** What file descriptor 0 gives the run under way. */
const stdin = { bytes: new Uint8Array(), offset: 0 }

/**
 * The run's time limit, read by the interpreter where it checks for signals (every few
 * bytecodes): once past the deadline it reads 2 (SIGINT) once and Python raises
 * KeyboardInterrupt. Signal-free, as the thread that would write a shared buffer is the one
 * running Python; a program that swallows the interrupt meets the pool's kill at limit + grace.
 */
const clock = { deadline: Number.POSITIVE_INFINITY, interrupted: false }
const signals = {
  get 0() {
    if (clock.interrupted || performance.now() < clock.deadline) return 0
    clock.interrupted = true
    return 2
  },
  set 0(_: number) {},
}

type PythonRun = (
  code: string,
  stdin: string,
  outputLimit: number,
) => {
  toJs(): [CodeRunResult['outcome'] | 'interrupted', string, string, string, number, boolean]
  destroy(): void
}

type PyDict = { get(name: string): unknown; destroy(): void }

/** Pyodide from scratch (`undefined`, ready for a snapshot) or from a memory snapshot. */
export function loadPyodideEngine(snapshot: Uint8Array | undefined): Promise<PyodideAPI> {
  const indexURL = `${path.dirname(require.resolve('pyodide/package.json'))}/`
  return loadPyodide({
    indexURL,
    jsglobals: Object.create(null),
    env: { HOME: '/home/pyodide' },
    stdout: () => {},
    stderr: () => {},
    ...(snapshot ? { _loadSnapshot: snapshot } : { _makeSnapshot: true }),
  } as Parameters<typeof loadPyodide>[0])
}

export const runnerSource = () => readFileSync(new URL('./runner.py', import.meta.url), 'utf8')
/** Where runner.py's imports end: what the snapshot holds; the rest runs in each child. */
const SNAPSHOT_END = '# ---- Above: run once'

/**
 * The interpreter with runner.py's modules imported, as bytes: what every child starts from in
 * a fraction of a full load. (No further: the snapshot cannot hold what the rest of runner.py
 * changes in the JavaScript bridge.)
 */
export async function makePythonSnapshot(): Promise<Uint8Array> {
  const pyodide = await loadPyodideEngine(undefined)
  const source = runnerSource()
  const end = source.indexOf(SNAPSHOT_END)
  if (end < 0) throw new Error('runner.py has lost its snapshot mark')
  pyodide.runPython(source.slice(0, end), { filename: 'runner.py' })
  return (pyodide as unknown as { makeMemorySnapshot(): Uint8Array }).makeMemorySnapshot()
}

/**
 * Runs runner.py in a loaded engine and answers its runs: synchronous, each with the run's
 * stdin, time limit and output cap. `clean` false: the run changed what runner.py could not
 * put back. `seed` (hex): the random generator's, as every child starts from the same
 * snapshot, generator state included (given by the parent: drawing it here would load the
 * process's cryptography for that alone).
 */
export function loadPythonRunner(pyodide: PyodideAPI, source: string, seed?: string) {
  if (seed !== undefined) {
    if (!/^[0-9a-f]+$/.test(seed)) throw new Error('the random seed is not hexadecimal')
    pyodide.runPython(`__import__('random').seed(0x${seed})`)
  }
  pyodide.setInterruptBuffer(signals as unknown as Int32Array)
  // File descriptor 0 (`open(0).read()`) reads the run's stdin too; without this it would read
  // the process's own (a fatal error once its files are out of reach).
  pyodide.setStdin({
    read(buffer) {
      const count = Math.min(buffer.length, stdin.bytes.length - stdin.offset)
      buffer.set(stdin.bytes.subarray(stdin.offset, stdin.offset + count))
      stdin.offset += count
      return count
    },
    isatty: false,
  })
  pyodide.unregisterJsModule('js')
  pyodide.unregisterJsModule('pyodide_js')
  const namespace = (pyodide.globals.get('dict') as () => PyDict)()
  pyodide.runPython(source, { globals: namespace as never, filename: 'runner.py' })
  const runProgram = namespace.get('run') as PythonRun
  namespace.destroy()

  const memoryBytes = () =>
    getHeapStatistics().used_heap_size +
    (pyodide as unknown as { _module: { HEAP8: Int8Array } })._module.HEAP8.buffer.byteLength

  const run = (request: CodeRunRequest): { result: CodeRunResult; clean: boolean } => {
    const started = performance.now()
    let reply: ReturnType<PythonRun>
    stdin.bytes = new TextEncoder().encode(request.stdin)
    stdin.offset = 0
    clock.deadline = started + request.timeLimitMs
    clock.interrupted = false
    try {
      reply = runProgram(request.code, request.stdin, MAX_OUTPUT_BYTES)
    } catch (error) {
      // Interrupted while putting the state back (the limit fell just then): not clean.
      const message = error instanceof Error ? error.message : String(error)
      const durationMs = Math.round(performance.now() - started)
      const result: CodeRunResult = clock.interrupted
        ? { outcome: 'timeout', stdout: '', stderr: '', durationMs }
        : { outcome: 'error', error: { message }, stdout: '', stderr: '', durationMs }
      return { result, clean: false }
    } finally {
      clock.deadline = Number.POSITIVE_INFINITY
    }
    const [outcome, stdout, stderr, message, line, clean] = reply.toJs()
    reply.destroy()
    const output = { stdout, stderr, durationMs: Math.round(performance.now() - started) }
    let result: CodeRunResult
    if (clock.interrupted && outcome !== 'output-limit') {
      // Interrupted at the limit: whatever the program did with the KeyboardInterrupt.
      result = { ...output, outcome: 'timeout' }
    } else if (outcome === 'error') {
      result = { ...output, outcome, error: line > 0 ? { message, line } : { message } }
    } else if (outcome === 'interrupted') {
      // It raised one itself.
      result = { ...output, outcome: 'error', error: { message } }
    } else {
      result = { ...output, outcome } as CodeRunResult
    }
    return { result, clean }
  }
  return { run, memoryBytes }
}
