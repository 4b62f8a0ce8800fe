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
import {
  capWasmMemory,
  childStart,
  disableOutwardModules,
  failed,
  refused,
  send,
  serve,
  startCpuMs,
} from '#server/code-sandbox/child.ts'
import {
  loadPyodideEngine,
  loadPythonRunner,
  makePythonSnapshot,
  runnerSource,
} from '#server/code-sandbox/pyodide-runner.ts'

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

try {
  const start = childStart()
  capWasmMemory(start.memoryLimitBytes)
  // Pyodide's Node file system reads its flags through process.binding, which the permission
  // model refuses: the same constants, from the module that has them.
  const powers = process as unknown as Record<string, unknown>
  powers.binding = (name: string) => {
    if (name === 'constants') return { fs: constants }
    throw new Error(`process.binding(${name}) is not available in the sandbox`)
  }
  if (start.snapshot === 'make') {
    // Made once per pool, in a child of its own, before any learner code exists.
    await send({ kind: 'snapshot', bytes: await makePythonSnapshot() })
    process.disconnect()
  } else if (start.snapshot) {
    const source = runnerSource()
    const pyodide = await loadPyodideEngine(readFileSync(start.snapshot))
    const runner = loadPythonRunner(pyodide, source, start.seed)
    // Files are read now or never: the standard library is inside the WebAssembly file system.
    disableOutwardModules()
    disarmRealm()
    serve(({ id, request }) => {
      const { result, clean } = runner.run(request)
      return { kind: 'result', id, result, memoryBytes: runner.memoryBytes(), replace: !clean }
    })
    await send({ kind: 'ready', memoryBytes: runner.memoryBytes(), startCpuMs: startCpuMs() })
  } else throw new Error('no memory snapshot to start from')
} catch (error) {
  failed(error)
}
