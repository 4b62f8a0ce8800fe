// The learner's browser runs code in dedicated Workers (docs/decisions/032): JavaScript in a
// fresh worker per run (one is kept warm, so a run starts at once), Python in one Pyodide worker
// loaded on the first Python run and kept. A run's time limit counts from the moment the
// worker starts the program (not while Pyodide loads); past it, the worker is terminated and
// replaced. This module and the workers load only when code is first run (never with a page).
import {
  type CodeLanguage,
  type CodeRunner,
  type CodeRunRequest,
  type CodeRunResult,
  MAX_CODE_BYTES,
  MAX_TIME_LIMIT_MS,
  MIN_TIME_LIMIT_MS,
} from '#features/exercises/code-run.ts'
import { OutputCapture } from './output-capture.ts'
import {
  type OutputStream,
  parseWorkerMessage,
  type ReadyStats,
  type RunMessage,
  type WorkerMessage,
} from './protocol.ts'

export type LoadProgress = {
  language: CodeLanguage
  /** 'loading': fetching the runtime (loaded/total bytes, for Python); 'ready': it can run. */
  phase: 'loading' | 'starting' | 'ready' | 'failed'
  loaded?: number
  total?: number
}

export type BrowserRunnerOptions = {
  /** Pyodide's download and start-up, for a progress bar (and JavaScript's, instantly ready). */
  onProgress?(progress: LoadProgress): void
  /** Output as the program writes it (a run's result has all of it too). */
  onOutput?(stream: OutputStream, text: string): void
}

export type BrowserRunner = {
  run: CodeRunner
  /** Starts loading a language's runtime now (e.g. when a Python question comes into view). */
  preload(language: CodeLanguage): Promise<ReadyStats | undefined>
  /** Ends every worker; runs in flight end as 'unavailable'. */
  dispose(): void
}

/** Longest a runtime may take to load before a run reports it unavailable. */
const LOAD_TIMEOUT_MS = { javascript: 10_000, python: 120_000 } as const

const encoder = new TextEncoder()

function spawn(language: CodeLanguage): Worker {
  // Literal URLs, so that the build bundles each worker (into assets/code-runner/, whose
  // responses carry the workers' own CSP: server/content-security-policy.ts).
  return language === 'javascript'
    ? new Worker(new URL('./javascript.worker.ts', import.meta.url), {
        type: 'module',
        name: 'javascript-runner',
      })
    : new Worker(new URL('./python.worker.ts', import.meta.url), {
        type: 'module',
        name: 'python-runner',
      })
}

type Listener = (message: WorkerMessage) => void

/** One worker: its ready promise and whoever listens to it now. */
class RunnerWorker {
  readonly language: CodeLanguage
  readonly ready: Promise<ReadyStats>
  readonly spawnedAt = performance.now()
  #worker: Worker
  #listener: Listener | undefined
  #terminated = false
  #fail: (reason: string) => void = () => {}

  constructor(language: CodeLanguage, onProgress?: (progress: LoadProgress) => void) {
    this.language = language
    this.#worker = spawn(language)
    this.ready = new Promise<ReadyStats>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timeout')), LOAD_TIMEOUT_MS[language])
      this.#fail = (reason) => {
        clearTimeout(timer)
        reject(new Error(reason))
      }
      this.#worker.addEventListener('message', (event) => {
        const message = parseWorkerMessage(event.data)
        if (!message) return
        if (message.type === 'progress') {
          onProgress?.({
            language,
            phase: message.loaded >= message.total ? 'starting' : 'loading',
            loaded: message.loaded,
            total: message.total,
          })
        } else if (message.type === 'ready') {
          clearTimeout(timer)
          resolve({ ...message.stats, loadMs: performance.now() - this.spawnedAt })
        } else if (message.type === 'failed') {
          this.#fail(message.reason)
        } else {
          this.#listener?.(message)
        }
      })
      this.#worker.addEventListener('error', (event) => {
        // Errors of the program itself are the worker's to report; one reaching here means the
        // worker script failed (to load, or on start-up).
        event.preventDefault()
        this.#fail(event.message || 'worker error')
        this.#listener?.({ type: 'failed', reason: event.message || 'worker error' })
      })
    })
    // Nobody may be waiting yet; the failure is reported to the run that does.
    this.ready.catch(() => {})
  }

  get terminated(): boolean {
    return this.#terminated
  }

  listen(listener: Listener | undefined) {
    this.#listener = listener
  }

  send(message: RunMessage) {
    this.#worker.postMessage(message)
  }

  terminate() {
    if (this.#terminated) return
    this.#terminated = true
    this.#worker.terminate()
    this.#fail('terminated')
    this.#listener?.({ type: 'failed', reason: 'terminated' })
  }
}

function unavailable(reason: string, output?: OutputCapture): CodeRunResult {
  return {
    outcome: 'unavailable',
    reason,
    stdout: output?.stdout ?? '',
    stderr: output?.stderr ?? '',
    durationMs: 0,
  }
}

function clampTimeLimit(ms: number): number {
  return Math.min(MAX_TIME_LIMIT_MS, Math.max(MIN_TIME_LIMIT_MS, Number.isFinite(ms) ? ms : 0))
}

export function createBrowserRunner(options: BrowserRunnerOptions = {}): BrowserRunner {
  let warmJavaScript: RunnerWorker | undefined
  let python: RunnerWorker | undefined
  let disposed = false
  const live = new Set<RunnerWorker>()
  // One run at a time per runner: a second waits for the first (the Python worker is single).
  let queue: Promise<unknown> = Promise.resolve()

  const progress = (update: LoadProgress) => options.onProgress?.(update)

  function start(language: CodeLanguage): RunnerWorker {
    const worker = new RunnerWorker(language, progress)
    live.add(worker)
    if (language === 'python') progress({ language, phase: 'loading', loaded: 0 })
    worker.ready.then(
      () => progress({ language, phase: 'ready' }),
      (error: Error) => {
        if (error.message !== 'terminated') progress({ language, phase: 'failed' })
      },
    )
    return worker
  }

  function retire(worker: RunnerWorker) {
    worker.terminate()
    live.delete(worker)
    if (worker === python) python = undefined
    if (worker === warmJavaScript) warmJavaScript = undefined
  }

  /** The worker for a run: JavaScript's warm one (another warms up behind it), Python's own. */
  function workerFor(language: CodeLanguage): RunnerWorker {
    if (language === 'python') {
      python ??= start('python')
      return python
    }
    const worker = warmJavaScript ?? start('javascript')
    warmJavaScript = undefined
    return worker
  }

  function warmUp(language: CodeLanguage) {
    if (disposed) return
    if (language === 'javascript') warmJavaScript ??= start('javascript')
    else python ??= start('python')
  }

  async function runOnce(request: CodeRunRequest): Promise<CodeRunResult> {
    if (disposed) return unavailable('disposed')
    if (encoder.encode(request.code).byteLength > MAX_CODE_BYTES) {
      return {
        outcome: 'error',
        error: { message: `コードが長すぎます（上限 ${MAX_CODE_BYTES / 1024} KB）。` },
        stdout: '',
        stderr: '',
        durationMs: 0,
      }
    }
    const timeLimitMs = clampTimeLimit(request.timeLimitMs)
    const worker = workerFor(request.language)
    try {
      await worker.ready
    } catch (error) {
      retire(worker)
      return unavailable(error instanceof Error ? error.message : String(error))
    }
    const output = new OutputCapture()
    const result = await new Promise<CodeRunResult>((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined
      let startedAt = 0
      const end = (result: CodeRunResult) => {
        clearTimeout(timer)
        worker.listen(undefined)
        resolve(result)
      }
      const stopped = (outcome: 'timeout' | 'output-limit') => {
        const durationMs = outcome === 'timeout' ? timeLimitMs : performance.now() - startedAt
        end({ outcome, stdout: output.stdout, stderr: output.stderr, durationMs })
        retire(worker)
      }
      worker.listen((message) => {
        switch (message.type) {
          case 'started':
            startedAt = performance.now()
            timer = setTimeout(() => stopped('timeout'), timeLimitMs)
            return
          case 'output': {
            const room = output.append(message.stream, message.text)
            options.onOutput?.(message.stream, message.text)
            if (!room) stopped('output-limit')
            return
          }
          case 'done': {
            const base = {
              stdout: output.stdout,
              stderr: output.stderr,
              durationMs: message.durationMs,
            }
            end(
              message.outcome === 'error'
                ? { ...base, outcome: 'error', error: message.error ?? { message: 'Error' } }
                : { ...base, outcome: 'completed' },
            )
            if (message.replace) retire(worker)
            return
          }
          case 'failed':
            // The worker cannot run anything more: the next run gets a new one.
            end(unavailable(message.reason, output))
            retire(worker)
            return
        }
      })
      worker.send({ type: 'run', code: request.code, stdin: request.stdin })
    })
    // A JavaScript worker serves one run; Python's stays for the next unless it was stopped.
    if (request.language === 'javascript') retire(worker)
    warmUp(request.language)
    return result
  }

  return {
    run(request) {
      const result = queue.then(() => runOnce(request))
      queue = result.catch(() => {})
      return result
    },
    async preload(language) {
      warmUp(language)
      const worker = language === 'python' ? python : warmJavaScript
      return worker?.ready.catch(() => undefined)
    },
    dispose() {
      disposed = true
      for (const worker of live) worker.terminate()
      live.clear()
      python = undefined
      warmJavaScript = undefined
    },
  }
}
