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
const timers = { setTimeout: scope.setTimeout.bind(scope) }
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

type Timer = { at: number; handler: unknown; args: unknown[]; every?: number }

/**
 * Timers on a virtual clock, as the server runs them (server/code-sandbox/quickjs-runner.ts):
 * once the program and its promise jobs are done, the earliest timer runs at once, and so on
 * until none is left; the time limit is for computing, not for waiting. A setInterval never
 * cleared runs into the time limit.
 */
function virtualTimers() {
  const pending = new Map<number, Timer>()
  let nextId = 1
  let clock = 0
  const add = (handler: unknown, ms: unknown, args: unknown[], every: boolean) => {
    const id = nextId++
    const delay = Math.max(every ? 1 : 0, Number(ms) || 0)
    pending.set(id, { at: clock + delay, handler, args, every: every ? delay : undefined })
    return id
  }
  const clear = (id: unknown) => {
    pending.delete(Number(id))
  }
  return {
    setTimeout: (handler: unknown, ms?: unknown, ...args: unknown[]) =>
      add(handler, ms, args, false),
    setInterval: (handler: unknown, ms?: unknown, ...args: unknown[]) =>
      add(handler, ms, args, true),
    clearTimeout: clear,
    clearInterval: clear,
    /** Runs the earliest timer; false when none is left. */
    tick(): boolean {
      let first: [number, Timer] | undefined
      for (const entry of pending) if (!first || entry[1].at < first[1].at) first = entry
      if (!first) return false
      const [id, timer] = first
      clock = timer.at
      if (timer.every === undefined) pending.delete(id)
      else timer.at = clock + timer.every
      if (typeof timer.handler === 'function') timer.handler(...timer.args)
      return true
    },
  }
}

// A task of its own after the promise jobs queued so far (setTimeout's nesting clamp would make
// a program with many timers wait).
const channel = new MessageChannel()
let nextTask: () => void = () => {}
channel.port1.onmessage = () => nextTask()
const afterJobs = (task: () => void) => {
  nextTask = task
  channel.port2.postMessage(null)
}

function whenIdle(clock: ReturnType<typeof virtualTimers>) {
  const step = () => {
    if (finished) return
    if (!clock.tick()) {
      finish({ type: 'done', outcome: 'completed', durationMs: now() - startedAt })
      return
    }
    afterJobs(step)
  }
  afterJobs(step)
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
  const clock = virtualTimers()
  Object.assign(scope, {
    setTimeout: clock.setTimeout,
    clearTimeout: clock.clearTimeout,
    setInterval: clock.setInterval,
    clearInterval: clock.clearInterval,
  })
  post({ type: 'started' })
  startedAt = now()
  // Its own task, uncaught: a syntax error then reaches the error event with its line, which
  // a caught one would not carry (V8 puts no position on an eval's SyntaxError).
  timers.setTimeout(() => {
    indirectEval(`${message.code}\n//# sourceURL=${LEARNER_FILE.javascript}`)
    whenIdle(clock)
  }, 0)
})

post({ type: 'ready', stats: { loadMs: now() - startedLoading, transferBytes: 0 } })
