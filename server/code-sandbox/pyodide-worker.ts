// A worker thread of the Python pool: Pyodide loaded once, one run at a time (pool.ts), each
// with fresh globals and the interpreter's shared state put back afterwards (runner.py).
//
// Python can reach JavaScript objects (pyodide.ffi.to_js([]) is one), and from any of them the
// Function constructor, and from there this thread's Node: so the Python sandbox is this
// thread's JavaScript realm made powerless once Pyodide has loaded (decision 033): no code from
// strings, no child processes, sockets, files or process internals, an empty environment.
import { readFileSync } from 'node:fs'
import { createRequire, syncBuiltinESMExports } from 'node:module'
import path from 'node:path'
import { getHeapStatistics } from 'node:v8'
import { parentPort, workerData } from 'node:worker_threads'
import { loadPyodide, type PyodideAPI } from 'pyodide'
import type { CodeRunResult } from '#features/exercises/code-run.ts'
import { MAX_OUTPUT_BYTES } from '#features/exercises/code-run.ts'
import type { RunMessage, WorkerMessage, WorkerStart } from '#server/code-sandbox/protocol.ts'

const port = parentPort
if (!port) throw new Error('pyodide-worker.ts runs as a worker thread')
const start = workerData as WorkerStart
const send = (message: WorkerMessage) => port.postMessage(message)
const require = createRequire(import.meta.url)

const refused = (what: string) => () => {
  throw new Error(`${what} is not available in the sandbox`)
}

/** Every function of these Node modules throws, for this thread only (each has its own). */
function disableModules(names: readonly string[]) {
  // All loaded first: Node's own modules build on each other's classes as they load.
  const modules = names.map((name) => [name, require(name)] as const)
  for (const [name, exports] of modules as [string, Record<string, unknown>][]) {
    for (const [key, property] of Object.entries(Object.getOwnPropertyDescriptors(exports))) {
      // Lazily loaded classes (getters) are left: they do nothing without the functions.
      if (property.writable && typeof property.value === 'function') {
        exports[key] = refused(`${name}.${key}`)
      }
    }
  }
  // The ES module views of these modules (`import('node:net')`) follow the change.
  syncBuiltinESMExports()
}

/** Ceiling on the WebAssembly memory: Python's allocations past it get MemoryError. */
function capWasmMemory(maxBytes: number) {
  const grow = WebAssembly.Memory.prototype.grow
  WebAssembly.Memory.prototype.grow = function (this: WebAssembly.Memory, pages: number) {
    if (this.buffer.byteLength + pages * 65_536 > maxBytes) {
      throw new RangeError('the sandbox memory limit is reached')
    }
    return grow.call(this, pages)
  }
}

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

type PythonRun = (
  code: string,
  stdin: string,
  outputLimit: number,
) => {
  toJs(): [CodeRunResult['outcome'] | 'interrupted', string, string, string, number, boolean]
  destroy(): void
}

async function load(): Promise<{ run: PythonRun; pyodide: PyodideAPI }> {
  capWasmMemory(start.memoryLimitBytes)
  const indexURL = `${path.dirname(require.resolve('pyodide/package.json'))}/`
  const runnerSource = readFileSync(new URL('./runner.py', import.meta.url), 'utf8')
  const pyodide = await loadPyodide({
    indexURL,
    jsglobals: Object.create(null),
    env: { HOME: '/home/pyodide' },
    stdout: () => {},
    stderr: () => {},
  })
  if (start.interrupt) pyodide.setInterruptBuffer(new Int32Array(start.interrupt))
  pyodide.unregisterJsModule('js')
  pyodide.unregisterJsModule('pyodide_js')
  // Once loaded (its modules are imported, and their classes extended, by then). Files are read
  // now or never: the standard library is inside the WebAssembly file system.
  disableModules([
    'node:child_process',
    'node:net',
    'node:tls',
    'node:dgram',
    'node:http',
    'node:https',
    'node:http2',
    'node:dns',
    'node:cluster',
    'node:inspector',
    'node:fs',
    'node:fs/promises',
    'node:worker_threads',
  ])
  const namespace = pyodide.globals.get('dict')()
  pyodide.runPython(runnerSource, { globals: namespace, filename: 'runner.py' })
  const run = namespace.get('run') as PythonRun
  disarmRealm()
  return { run, pyodide }
}

try {
  const { run, pyodide } = await load()
  const memoryBytes = () =>
    getHeapStatistics().used_heap_size +
    (pyodide as unknown as { _module: { HEAP8: Int8Array } })._module.HEAP8.buffer.byteLength
  port.on('message', ({ id, request }: RunMessage) => {
    const started = performance.now()
    let reply: ReturnType<PythonRun>
    try {
      reply = run(request.code, request.stdin, MAX_OUTPUT_BYTES)
    } catch (error) {
      // Interrupted while putting the state back (the limit fell just then): start afresh.
      const message = error instanceof Error ? error.message : String(error)
      const durationMs = Math.round(performance.now() - started)
      const result: CodeRunResult = {
        outcome: 'error',
        error: { message },
        stdout: '',
        stderr: '',
        durationMs,
      }
      send({ kind: 'result', id, result, memoryBytes: memoryBytes(), replace: true })
      return
    }
    const [outcome, stdout, stderr, message, line, clean] = reply.toJs()
    reply.destroy()
    const output = { stdout, stderr, durationMs: Math.round(performance.now() - started) }
    let result: CodeRunResult
    if (outcome === 'error') {
      result = { ...output, outcome, error: line > 0 ? { message, line } : { message } }
    } else if (outcome === 'interrupted') {
      // The pool interrupted it at the time limit (and says so), or it raised one itself.
      result = { ...output, outcome: 'error', error: { message } }
    } else {
      result = { ...output, outcome } as CodeRunResult
    }
    send({ kind: 'result', id, result, memoryBytes: memoryBytes(), replace: !clean })
  })
  send({ kind: 'ready', memoryBytes: memoryBytes() })
} catch (error) {
  send({ kind: 'failed', reason: error instanceof Error ? error.message : String(error) })
}
