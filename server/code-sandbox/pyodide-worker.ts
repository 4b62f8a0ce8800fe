// A child process of the Python pool (pool.ts): Pyodide started from a memory snapshot made
// before any learner code ran, then one submission (its runs, each with fresh globals and the
// interpreter's shared state put back afterwards by runner.py), then the pool kills it.
//
// Python can reach JavaScript objects (pyodide.ffi.to_js([]) is one), and from any of them the
// Function constructor, and from there this process's Node: the permission model bounds what
// that Node can do (no files but the runtime's own, no processes, workers or addons), and the
// realm is made powerless once Pyodide has loaded (decision 033): no code from strings, no
// sockets (the permission model does not cover them), no process internals.
import { constants, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { getHeapStatistics } from 'node:v8'
import { loadPyodide, type PyodideAPI } from 'pyodide'
import type { CodeRunResult } from '#features/exercises/code-run.ts'
import { MAX_OUTPUT_BYTES } from '#features/exercises/code-run.ts'
import {
  capWasmMemory,
  childStart,
  disableOutwardModules,
  failed,
  refused,
  send,
  serve,
} from '#server/code-sandbox/child.ts'

const require = createRequire(import.meta.url)

/** What is left of this realm for code that got hold of a JavaScript object. */
function disarmRealm() {
  const codeFromStrings = refused('Code generation from strings')
  for (const sample of [() => {}, async () => {}, function* () {}, async function* () {}]) {
    const prototype = Object.getPrototypeOf(sample) as object
    const name = (prototype as { constructor: { name: string } }).constructor.name
    // Named as before: Pyodide reads `constructor.name` to tell kinds of functions apart.
    const replacement = { [name]: (..._: unknown[]) => codeFromStrings() }[name]
    Object.defineProperty(prototype, 'constructor', { value: replacement })
  }
  const globals = globalThis as Record<string, unknown>
  for (const name of ['eval', 'require', 'fetch', 'WebSocket', 'EventSource']) {
    delete globals[name]
  }
  // Pyodide still asks `instanceof Function`: a stand-in with the same prototype answers that.
  const standIn = (..._: unknown[]) => codeFromStrings()
  Object.defineProperty(standIn, 'name', { value: 'Function' })
  Object.defineProperty(standIn, 'prototype', { value: Function.prototype })
  globals.Function = standIn
  const powers = process as unknown as Record<string, unknown>
  for (const name of [
    'binding',
    '_linkedBinding',
    'dlopen',
    'getBuiltinModule',
    'kill',
    '_kill',
    'execve',
    'chdir',
    'loadEnvFile',
    'openStdin',
    'setuid',
    'setgid',
    'seteuid',
    'setegid',
    'setgroups',
    'initgroups',
    '_debugProcess',
    'abort',
    'reallyExit',
  ]) {
    powers[name] = refused(`process.${name}`)
  }
  // A diagnostic report is a file written where its caller says.
  const report = powers.report as Record<string, unknown> | undefined
  if (report) {
    for (const name of ['writeReport', 'getReport']) {
      Object.defineProperty(report, name, { value: refused(`process.report.${name}`) })
    }
  }
  // Errors' stack hooks would hand out the functions on the stack.
  Object.defineProperty(Error, 'prepareStackTrace', { value: undefined, writable: false })
}

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

async function loadEngine(snapshot: Uint8Array | undefined): Promise<PyodideAPI> {
  // Pyodide's Node file system reads its flags through process.binding, which the permission
  // model refuses: the same constants, from the module that has them.
  const powers = process as unknown as Record<string, unknown>
  powers.binding = (name: string) => {
    if (name === 'constants') return { fs: constants }
    throw new Error(`process.binding(${name}) is not available in the sandbox`)
  }
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

const runnerSource = () => readFileSync(new URL('./runner.py', import.meta.url), 'utf8')
/** Where runner.py's imports end: what the snapshot holds; the rest runs in each child. */
const SNAPSHOT_END = '# ---- Above: run once'

/**
 * Made once per pool, in a child of its own, before any learner code exists: the interpreter
 * with runner.py's modules imported, for every later child to start from in a fraction of a
 * full load. (No further: the snapshot cannot hold what the rest of runner.py changes in the
 * JavaScript bridge.)
 */
async function makeSnapshot() {
  const pyodide = await loadEngine(undefined)
  const source = runnerSource()
  const end = source.indexOf(SNAPSHOT_END)
  if (end < 0) throw new Error('runner.py has lost its snapshot mark')
  pyodide.runPython(source.slice(0, end), { filename: 'runner.py' })
  const bytes = (pyodide as unknown as { makeMemorySnapshot(): Uint8Array }).makeMemorySnapshot()
  await send({ kind: 'snapshot', bytes })
  process.disconnect()
}

async function load(snapshotFile: string): Promise<{ run: PythonRun; pyodide: PyodideAPI }> {
  const source = runnerSource()
  const pyodide = await loadEngine(readFileSync(snapshotFile))
  pyodide.setInterruptBuffer(signals as unknown as Int32Array)
  // File descriptor 0 (`open(0).read()`) reads the run's stdin too; without this it would read
  // the process's own, through the files that are closed below (a fatal error).
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
  // Files are read now or never: the standard library is inside the WebAssembly file system.
  disableOutwardModules()
  const namespace = (pyodide.globals.get('dict') as () => PyDict)()
  pyodide.runPython(source, { globals: namespace as never, filename: 'runner.py' })
  const run = namespace.get('run') as PythonRun
  namespace.destroy()
  disarmRealm()
  return { run, pyodide }
}

try {
  const start = childStart()
  capWasmMemory(start.memoryLimitBytes)
  if (start.snapshot === 'make') await makeSnapshot()
  else if (start.snapshot) {
    const { run, pyodide } = await load(start.snapshot)
    const memoryBytes = () =>
      getHeapStatistics().used_heap_size +
      (pyodide as unknown as { _module: { HEAP8: Int8Array } })._module.HEAP8.buffer.byteLength
    serve(({ id, request }) => {
      const started = performance.now()
      let reply: ReturnType<PythonRun>
      stdin.bytes = new TextEncoder().encode(request.stdin)
      stdin.offset = 0
      clock.deadline = started + request.timeLimitMs
      clock.interrupted = false
      try {
        reply = run(request.code, request.stdin, MAX_OUTPUT_BYTES)
      } catch (error) {
        // Interrupted while putting the state back (the limit fell just then): nothing more here.
        const message = error instanceof Error ? error.message : String(error)
        const durationMs = Math.round(performance.now() - started)
        const result: CodeRunResult = clock.interrupted
          ? { outcome: 'timeout', stdout: '', stderr: '', durationMs }
          : { outcome: 'error', error: { message }, stdout: '', stderr: '', durationMs }
        return { kind: 'result', id, result, memoryBytes: memoryBytes(), replace: true }
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
      return { kind: 'result', id, result, memoryBytes: memoryBytes(), replace: !clean }
    })
    await send({ kind: 'ready', memoryBytes: memoryBytes() })
  } else throw new Error('no memory snapshot to start from')
} catch (error) {
  failed(error)
}
