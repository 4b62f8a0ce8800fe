// A JavaScript runner: one dedicated Worker per run (browser-runner.ts), so that nothing a run
// leaves behind (globals, timers) reaches the next, and a run past its time limit is simply
// terminated. The learner's program runs as a classic script (indirect eval) named main.js, with
// `input()` for stdin and console captured (features/exercises/code-run.ts's convention).

import { MAX_OUTPUT_BYTES } from '#features/exercises/code-run.ts'
import { formatConsoleArgs } from '#features/exercises/console-format.ts'
import { javascriptError, LEARNER_FILE } from './error-report.ts'
import type { OutputStream, RunMessage, WorkerMessage } from './protocol.ts'
import { lockDown } from './sandbox.ts'

const scope = globalThis as unknown as {
  eval: (source: string) => unknown
  addEventListener: typeof addEventListener
  setTimeout: typeof setTimeout
  clearTimeout: typeof clearTimeout
  setInterval: typeof setInterval
  clearInterval: typeof clearInterval
  input?: () => string | null
  console: Console
}
const startedLoading = performance.now()
const timers = {
  setTimeout: scope.setTimeout.bind(scope),
  clearTimeout: scope.clearTimeout.bind(scope),
  setInterval: scope.setInterval.bind(scope),
  clearInterval: scope.clearInterval.bind(scope),
}
const indirectEval = scope.eval
const now = performance.now.bind(performance)
const post = lockDown() as (message: WorkerMessage) => void
// The worker's own name is a global no program declares: without it, an undeclared `name` is a
// ReferenceError, as on the server, not the worker's name printed.
for (let holder: object | null = scope; holder && holder !== Object.prototype; ) {
  Reflect.deleteProperty(holder, 'name')
  holder = Object.getPrototypeOf(holder) as object | null
}

let finished = false
let startedAt = 0
let written = 0

function finish(message: Extract<WorkerMessage, { type: 'done' }>) {
  if (finished) return
  finished = true
  post(message)
}

function write(stream: OutputStream, text: string) {
  // The page keeps the limit (OutputCapture); this only stops a runaway program from posting
  // (or building) more than it could ever show.
  if (finished || written > MAX_OUTPUT_BYTES) return
  const chunk = text.length > MAX_OUTPUT_BYTES ? text.slice(0, MAX_OUTPUT_BYTES + 1) : text
  written += chunk.length
  post({ type: 'output', stream, text: chunk })
}

function learnerConsole(): Console {
  const line =
    (stream: OutputStream) =>
    (...args: unknown[]) =>
      write(stream, `${formatConsoleArgs(args)}\n`)
  const out = line('stdout')
  const err = line('stderr')
  return {
    ...scope.console,
    log: out,
    info: out,
    debug: out,
    table: out,
    dir: (value: unknown) => out(value),
    error: err,
    warn: err,
    trace: err,
    assert: (condition?: boolean, ...args: unknown[]) => {
      if (!condition) err('Assertion failed', ...args)
    },
  } as Console
}

/**
 * Timers the program sets, counted, so that a run ends (like Node's) once its code has run and
 * no timer it set is pending; a setInterval never cleared runs into the time limit.
 */
function countedTimers() {
  const pending = new Set<unknown>()
  return {
    pending,
    setTimeout: (handler: unknown, delay?: number, ...args: unknown[]) => {
      const id = timers.setTimeout(() => {
        pending.delete(id)
        if (typeof handler === 'function') handler(...args)
      }, delay)
      pending.add(id)
      return id
    },
    clearTimeout: (id: unknown) => {
      pending.delete(id)
      timers.clearTimeout(id as number)
    },
    setInterval: (handler: unknown, delay?: number, ...args: unknown[]) => {
      const id = timers.setInterval(() => {
        if (typeof handler === 'function') handler(...args)
      }, delay)
      pending.add(id)
      return id
    },
    clearInterval: (id: unknown) => {
      pending.delete(id)
      timers.clearInterval(id as number)
    },
  }
}

function whenIdle(pending: Set<unknown>) {
  const check = () => {
    if (finished) return
    if (pending.size === 0)
      finish({ type: 'done', outcome: 'completed', durationMs: now() - startedAt })
    else timers.setTimeout(check, 1)
  }
  // A macrotask later: promises the program chained have settled by then.
  timers.setTimeout(check, 0)
}

scope.addEventListener('error', (event) => {
  const error = event as ErrorEvent
  error.preventDefault()
  finish({
    type: 'done',
    outcome: 'error',
    durationMs: now() - startedAt,
    error: javascriptError(error.error ?? error.message, error),
  })
})
scope.addEventListener('unhandledrejection', (event) => {
  const rejection = event as PromiseRejectionEvent
  rejection.preventDefault()
  finish({
    type: 'done',
    outcome: 'error',
    durationMs: now() - startedAt,
    error: javascriptError(rejection.reason),
  })
})

let ran = false
scope.addEventListener('message', (event) => {
  const message = (event as MessageEvent<RunMessage>).data
  if (ran || message?.type !== 'run') return
  ran = true
  const lines = message.stdin.replace(/\r\n?/g, '\n').split('\n')
  // A final newline ends the last line; it does not start another.
  if (lines.at(-1) === '') lines.pop()
  scope.input = () => (lines.length > 0 ? (lines.shift() ?? null) : null)
  scope.console = learnerConsole()
  const counted = countedTimers()
  Object.assign(scope, {
    setTimeout: counted.setTimeout,
    clearTimeout: counted.clearTimeout,
    setInterval: counted.setInterval,
    clearInterval: counted.clearInterval,
  })
  post({ type: 'started' })
  startedAt = now()
  // Its own task, uncaught: a syntax error then reaches the error event with its line, which
  // a caught one would not carry (V8 puts no position on an eval's SyntaxError).
  timers.setTimeout(() => {
    indirectEval(`${message.code}\n//# sourceURL=${LEARNER_FILE.javascript}`)
    whenIdle(counted.pending)
  }, 0)
})

post({ type: 'ready', stats: { loadMs: now() - startedLoading, transferBytes: 0 } })
