import { Buffer } from 'node:buffer'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { performance } from 'node:perf_hooks'
import variant from '@jitl/quickjs-wasmfile-release-sync'
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSHandle,
} from 'quickjs-emscripten-core'
import type { CodeRunRequest, CodeRunResult } from '#features/exercises/code-run.ts'
import { MAX_OUTPUT_BYTES } from '#features/exercises/code-run.ts'
import { formatConsoleArgs } from '#features/exercises/console-format.ts'
import { stdinLines } from '#server/code-sandbox/output.ts'

export type QuickJsLimits = {
  /** The engine's heap for one run: a program allocating more gets "out of memory". */
  memoryLimitBytes: number
  /**
   * The engine's own stack: deep recursion ends as "stack overflow" before the thread's native
   * stack does (each engine frame costs native stack too: 256 KB fits Node's default thread
   * stack; the workers have 16 MB and allow 1 MB, some 6,000 frames).
   */
  stackSizeBytes: number
}

/** For a thread with Node's default stack (the bench's in-thread runs). */
export const DEFAULT_QUICKJS_LIMITS: QuickJsLimits = {
  memoryLimitBytes: 64 * 1024 * 1024,
  stackSizeBytes: 256 * 1024,
}

/** Ties the learner's globals (console, input, timers) to the host's two functions. */
const PRELUDE = `(function (write, readLine, format) {
  'use strict'
  const out = (stream) => (...args) => { write(stream, format(args) + '\\n') }
  globalThis.console = { log: out(1), info: out(1), debug: out(1), warn: out(2), error: out(2) }
  globalThis.input = () => readLine()
  // Timers on a virtual clock: they run in order once the program and its promise jobs are
  // done, without waiting (the time limit is for computing, not for sleeping).
  const timers = new Map()
  let nextId = 1
  let now = 0
  const add = (fn, ms, args, every) => {
    const id = nextId++
    const delay = Math.max(every ? 1 : 0, Number(ms) || 0)
    timers.set(id, { at: now + delay, fn, args, every: every ? delay : undefined })
    return id
  }
  globalThis.setTimeout = (fn, ms, ...args) => add(fn, ms, args, false)
  globalThis.setInterval = (fn, ms, ...args) => add(fn, ms, args, true)
  globalThis.clearTimeout = globalThis.clearInterval = (id) => { timers.delete(id) }
  return () => {
    let first
    for (const entry of timers) if (!first || entry[1].at < first[1].at) first = entry
    if (!first) return false
    const [id, timer] = first
    now = timer.at
    if (timer.every === undefined) timers.delete(id)
    else timer.at = now + timer.every
    if (typeof timer.fn === 'function') timer.fn(...timer.args)
    return true
  }
})`

const LEARNER_FILE = 'main.js'
const STACK_OVERFLOW = 'RangeError: Maximum call stack size exceeded'

/** The message and line (in the learner's file) of an error the engine threw. */
function describeError(dumped: unknown): { message: string; line?: number } {
  if (dumped && typeof dumped === 'object' && 'message' in dumped) {
    const error = dumped as { name?: string; message?: string; stack?: string; lineNumber?: number }
    const named = error.name ? `${error.name}: ${error.message}` : String(error.message)
    // Worded as the browser's engine words it, the one learners look up.
    const message = named === 'InternalError: stack overflow' ? STACK_OVERFLOW : named
    const fromStack = error.stack?.match(new RegExp(`${LEARNER_FILE.replace('.', '\\.')}:(\\d+)`))
    const line = fromStack ? Number(fromStack[1]) : error.lineNumber
    return line === undefined ? { message } : { message, line }
  }
  return { message: `Uncaught ${typeof dumped === 'string' ? dumped : JSON.stringify(dumped)}` }
}

/** One engine loaded in this thread: synchronous runs, and the WebAssembly memory it holds. */
export type InThreadRunner = {
  run: (request: CodeRunRequest) => CodeRunResult
  wasmMemoryBytes: () => number
  /** The engine failed and can run nothing more: the thread is to be replaced. */
  broken: () => boolean
}

/**
 * The engine compiled once, for instances of their own (own WebAssembly memory): what one run
 * leaves in the engine's memory, no later run can read.
 */
export async function compileQuickJs() {
  const require = createRequire(import.meta.url)
  const wasmModule = await WebAssembly.compile(
    readFileSync(require.resolve('@jitl/quickjs-wasmfile-release-sync/wasm')),
  )
  return (limits: QuickJsLimits = DEFAULT_QUICKJS_LIMITS) => loadQuickJsRunner(limits, wasmModule)
}

/**
 * Loads the QuickJS engine (WebAssembly) once and answers a function that runs one program in
 * a runtime of its own: nothing of the host is reachable but console output and `input()`, the
 * heap and the stack are limited, and an interrupt handler stops it at the time limit or once
 * it has written MAX_OUTPUT_BYTES. Synchronous: call it off the request thread (the pool's
 * workers do).
 */
export async function loadQuickJsRunner(
  limits: QuickJsLimits = DEFAULT_QUICKJS_LIMITS,
  wasmModule?: WebAssembly.Module,
): Promise<InThreadRunner> {
  // The engine's memory limit does not count typed arrays' bytes: without a ceiling on the
  // WebAssembly memory itself, `new Uint8Array(1e7)` in a loop grows it to 2 GB.
  const pages = (bytes: number) => Math.ceil(bytes / 65_536)
  const wasmMemory = new WebAssembly.Memory({
    initial: pages(16 * 1024 * 1024),
    maximum: pages(2 * limits.memoryLimitBytes),
  })
  const engine = await newQuickJSWASMModuleFromVariant(
    newVariant(variant, wasmModule ? { wasmMemory, wasmModule } : { wasmMemory }),
  )
  const formatSource = `(${formatConsoleArgs.toString()})`
  const wasmMemoryBytes = () => engine.getWasmMemory().buffer.byteLength
  let broken = false

  const run = (request: CodeRunRequest): CodeRunResult => {
    // Long by design: one run's runtime, handles and limits must be set up and freed together in one scope.
    const started = performance.now()
    const deadline = started + request.timeLimitMs
    const output = { stdout: [] as string[], stderr: [] as string[], bytes: 0 }
    let stop: 'timeout' | 'output-limit' | undefined
    const lines = stdinLines(request.stdin)
    let nextLine = 0

    const runtime = engine.newRuntime()
    runtime.setMemoryLimit(limits.memoryLimitBytes)
    runtime.setMaxStackSize(limits.stackSizeBytes)
    runtime.setInterruptHandler(() => {
      if (!stop && performance.now() > deadline) stop = 'timeout'
      return stop !== undefined
    })
    const context = runtime.newContext()
    const handles: QuickJSHandle[] = []
    const keep = (handle: QuickJSHandle) => {
      handles.push(handle)
      return handle
    }
    let failure: { message: string; line?: number } | undefined
    const noteFailure = (error: QuickJSHandle) => {
      let dumped: unknown
      try {
        dumped = context.dump(error)
      } catch {
        // Reading the error needs memory too.
        dumped = { name: 'InternalError', message: 'out of memory' }
      }
      error.dispose()
      failure = describeError(dumped)
    }
    // The result of one evaluation: its value, or undefined after noting why it failed.
    const settle = (result: ReturnType<QuickJSContext['evalCode']>) => {
      if (result.error) {
        noteFailure(result.error)
        return undefined
      }
      return keep(result.value)
    }

    try {
      const write = keep(
        context.newFunction('write', (streamHandle, textHandle) => {
          if (stop) return
          const text = context.getString(textHandle)
          const size = Buffer.byteLength(text)
          const room = MAX_OUTPUT_BYTES - output.bytes
          const target = context.getNumber(streamHandle) === 2 ? output.stderr : output.stdout
          if (size > room) {
            target.push(Buffer.from(text).subarray(0, room).toString())
            output.bytes = MAX_OUTPUT_BYTES
            stop = 'output-limit'
            return
          }
          output.bytes += size
          target.push(text)
        }),
      )
      const readLine = keep(
        context.newFunction('input', () =>
          nextLine < lines.length ? context.newString(lines[nextLine++] ?? '') : context.null,
        ),
      )
      const format = settle(context.evalCode(formatSource, 'runner.js'))
      const prelude = settle(context.evalCode(PRELUDE, 'runner.js'))
      if (!format || !prelude) throw new Error(`sandbox prelude failed: ${failure?.message}`)
      const tick = settle(context.callFunction(prelude, context.undefined, write, readLine, format))
      if (!tick) throw new Error(`sandbox prelude failed: ${failure?.message}`)

      if (settle(context.evalCode(request.code, LEARNER_FILE))) {
        // Promise jobs, then timers one by one (each may queue more jobs), until none is left.
        for (;;) {
          const jobs = runtime.executePendingJobs(-1)
          if (jobs.error) {
            noteFailure(jobs.error)
            break
          }
          if (stop) break
          const ran = settle(context.callFunction(tick, context.undefined))
          if (!ran || !context.dump(ran)) break
        }
      }
    } finally {
      for (const handle of handles) if (handle.alive) handle.dispose()
      try {
        context.dispose()
        runtime.dispose()
      } catch {
        // The engine aborts freeing a runtime interrupted amid endless promise jobs: this run's
        // verdict stands, and the engine is not used again (the worker asks to be replaced).
        broken = true
      }
    }

    const result = {
      stdout: output.stdout.join(''),
      stderr: output.stderr.join(''),
      durationMs: Math.round(performance.now() - started),
    }
    if (stop) return { ...result, outcome: stop }
    if (failure) return { ...result, outcome: 'error', error: failure }
    return { ...result, outcome: 'completed' }
  }
  return { run, wasmMemoryBytes, broken: () => broken }
}
