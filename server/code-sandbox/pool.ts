import { type ResourceLimits, Worker } from 'node:worker_threads'
import type { CodeRunRequest, CodeRunResult } from '#features/exercises/code-run.ts'
import { createFairQueue } from '#server/code-sandbox/fair-queue.ts'
import type { RunMessage, WorkerMessage, WorkerStart } from '#server/code-sandbox/protocol.ts'

export type PoolOptions = {
  /** The worker's module (quickjs-worker.ts or pyodide-worker.ts). */
  workerUrl: URL
  /** Worker threads at most; started on the first runs, never before. */
  size: number
  /** Runs waiting for a worker at most, every learner together (fair-queue.ts). */
  maxQueued: number
  /** Run time one learner may use in a sliding minute before being over share. */
  runMsPerLearnerPerMinute: number
  /** Runs one learner may have waiting before being over share. */
  queuedPerLearner: number
  /** Longest a run waits for a worker (loading the engine included) before 'unavailable'. */
  maxWaitMs: number
  /**
   * How long past its time limit a run may take to answer before its worker is terminated
   * (and replaced): the engines stop themselves at the limit, this is for what they miss.
   */
  graceMs: number
  /** The engine's heap limit for one run (worker_threads' resourceLimits cover V8's heap). */
  memoryLimitBytes: number
  /** Python: share an interrupt buffer with each worker, written at the time limit. */
  interrupts: boolean
  resourceLimits: ResourceLimits
}

export type PoolStats = {
  workers: number
  busy: number
  queued: number
  /** What the workers hold: their engines' WebAssembly memory and their JavaScript heaps. */
  memoryBytes: number
  /** Workers terminated (a run that did not stop, a crash) and replaced since the start. */
  replaced: number
  /** Runs a worker answered since the start. */
  runs: number
}

/** Whose run it is: a signed-in user's id, a guest's client address; none for the server's own. */
export type RunOptions = { learner?: string | undefined }

type Job = {
  id: number
  request: CodeRunRequest
  learner: string | undefined
  /** Counts the run's time against its learner once it ends (set when it starts). */
  done?: () => void
  resolve: (result: CodeRunResult) => void
  waitTimer?: NodeJS.Timeout
  timers: NodeJS.Timeout[]
  interrupted: boolean
}

type Slot = {
  worker: Worker
  ready: boolean
  memoryBytes: number
  interrupt?: Int32Array
  job?: Job
}

const unavailable = (reason: string): CodeRunResult => ({
  outcome: 'unavailable',
  reason,
  stdout: '',
  stderr: '',
  durationMs: 0,
})

const overShare = (retryAfterMs: number): CodeRunResult => ({
  outcome: 'unavailable',
  reason: 'this learner is over their share of the runner',
  retryAfterMs,
  stdout: '',
  stderr: '',
  durationMs: 0,
})

/**
 * A few worker threads running one language's engine, one run each at a time, and a bounded
 * queue in front of them (decision 033) that serves learners in turn (fair-queue.ts, decision
 * 045). Every run answers: a result, or 'unavailable' when the wait is too long or the pool
 * closed, with `retryAfterMs` when its learner is over their share; a worker that does not stop
 * at a run's limit, or dies, is terminated and replaced.
 */
export function createWorkerPool(options: PoolOptions) {
  const slots: Slot[] = []
  const queue = createFairQueue<Job>({
    runMsPerWindow: options.runMsPerLearnerPerMinute,
    queuedPerLearner: options.queuedPerLearner,
    maxQueued: options.maxQueued,
    parallelism: options.size,
  })
  let nextId = 0
  let replaced = 0
  let runs = 0
  let closed = false

  const answer = (job: Job, result: CodeRunResult) => {
    clearTimeout(job.waitTimer)
    for (const timer of job.timers) clearTimeout(timer)
    job.done?.()
    job.resolve(result)
  }

  const remove = (slot: Slot) => {
    const index = slots.indexOf(slot)
    if (index >= 0) slots.splice(index, 1)
    void slot.worker.terminate()
  }

  const spawn = () => {
    const interrupt = options.interrupts
      ? new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT))
      : undefined
    const worker = new Worker(options.workerUrl, {
      workerData: {
        interrupt: interrupt?.buffer as SharedArrayBuffer | undefined,
        memoryLimitBytes: options.memoryLimitBytes,
      } satisfies WorkerStart,
      // Nothing of the server's environment (secrets included) is there to read.
      env: {},
      resourceLimits: options.resourceLimits,
    })
    // An idle worker never keeps the process alive; a busy one does (ref'd while it runs).
    worker.unref()
    const slot: Slot = { worker, ready: false, memoryBytes: 0, interrupt }
    slots.push(slot)
    worker.on('message', (message: WorkerMessage) => {
      if (message.kind === 'ready') {
        slot.ready = true
        slot.memoryBytes = message.memoryBytes
      } else if (message.kind === 'failed') {
        failedToStart(slot, message.reason)
        return
      } else if (slot.job?.id === message.id) {
        const job = slot.job
        slot.job = undefined
        slot.memoryBytes = message.memoryBytes
        runs++
        worker.unref()
        const { result } = message
        if (message.replace) {
          remove(slot)
          replaced++
        }
        // Interrupted at the limit: whatever the program did with the KeyboardInterrupt.
        if (job.interrupted && result.outcome !== 'output-limit') {
          const { stdout, stderr, durationMs } = result
          answer(job, { outcome: 'timeout', stdout, stderr, durationMs })
        } else {
          answer(job, result)
        }
      }
      pump()
    })
    worker.on('error', (error) => ended(slot, error.message))
    worker.on('exit', (code) => ended(slot, `exit code ${code}`))
  }

  const failedToStart = (slot: Slot, reason: string) => {
    remove(slot)
    // No worker can start: everything waiting is told so, rather than retrying forever.
    if (slots.length === 0) {
      for (const job of queue.drain()) answer(job, unavailable(`engine failed to load: ${reason}`))
    }
  }

  const ended = (slot: Slot, reason: string) => {
    if (!slots.includes(slot)) return
    if (!slot.ready) {
      failedToStart(slot, reason)
      return
    }
    remove(slot)
    replaced++
    const job = slot.job
    if (job) {
      // The program brought its worker down (memory, most likely): its run failed.
      answer(job, {
        outcome: 'error',
        error: {
          message: `実行環境が停止しました（${reason}）。メモリを使いすぎていないか確かめてください。`,
        },
        stdout: '',
        stderr: '',
        durationMs: 0,
      })
    }
    pump()
  }

  const dispatch = (slot: Slot, job: Job) => {
    clearTimeout(job.waitTimer)
    slot.job = job
    slot.worker.ref()
    const { timeLimitMs } = job.request
    if (slot.interrupt) {
      const interrupt = slot.interrupt
      Atomics.store(interrupt, 0, 0)
      job.timers.push(
        setTimeout(() => {
          job.interrupted = true
          Atomics.store(interrupt, 0, 2)
        }, timeLimitMs),
      )
    }
    job.timers.push(
      setTimeout(() => {
        if (slot.job !== job) return
        // Still going after the grace: the engine missed the limit; the thread goes.
        slot.job = undefined
        remove(slot)
        replaced++
        answer(job, { outcome: 'timeout', stdout: '', stderr: '', durationMs: timeLimitMs })
        pump()
      }, timeLimitMs + options.graceMs),
    )
    slot.worker.postMessage({ id: job.id, request: job.request } satisfies RunMessage)
  }

  let pumping = false
  /**
   * Hands out idle workers once the current turn of the event loop is over, so that the next
   * test of a verification that just ended is waiting too and takes its turn (fair-queue.ts).
   */
  const pump = () => {
    if (pumping) return
    pumping = true
    setImmediate(() => {
      pumping = false
      pumpNow()
    })
  }

  const pumpNow = () => {
    for (const { item, retryAfterMs } of queue.overShareWaiting()) {
      answer(item, overShare(retryAfterMs))
    }
    while (queue.size > 0) {
      const idle = slots.find((slot) => slot.ready && !slot.job)
      if (idle) {
        const { item, done } = queue.next() as NonNullable<ReturnType<typeof queue.next>>
        item.done = done
        dispatch(idle, item)
        continue
      }
      const starting = slots.filter((slot) => !slot.ready).length
      if (slots.length < options.size && starting < queue.size) spawn()
      else return
    }
  }

  return {
    run(request: CodeRunRequest, runOptions: RunOptions = {}): Promise<CodeRunResult> {
      if (closed) return Promise.resolve(unavailable('the code sandbox is closed'))
      const { learner } = runOptions
      return new Promise((resolve) => {
        const job: Job = { id: nextId++, request, learner, resolve, timers: [], interrupted: false }
        const admission = queue.push(learner, job, request.timeLimitMs)
        if (!admission.accepted) {
          // Over share; or everything is full and nobody is further over their share than this
          // learner: the pool itself is overloaded.
          resolve(
            admission.reason === 'over-share'
              ? overShare(admission.retryAfterMs)
              : unavailable('too many runs are waiting; try again shortly'),
          )
          return
        }
        if (admission.evicted) {
          answer(admission.evicted.item, overShare(admission.evicted.retryAfterMs))
        }
        job.waitTimer = setTimeout(() => {
          if (!queue.remove(job)) return
          const over = queue.overShare(learner)
          answer(
            job,
            over
              ? overShare(over.retryAfterMs)
              : unavailable(`no worker was free within ${options.maxWaitMs} ms`),
          )
        }, options.maxWaitMs)
        pump()
      })
    },
    /** Starts a worker now if none is there, so the first run does not wait for the engine. */
    warm() {
      if (!closed && slots.length === 0) spawn()
    },
    stats(): PoolStats {
      return {
        workers: slots.length,
        busy: slots.filter((slot) => slot.job).length,
        queued: queue.size,
        memoryBytes: slots.reduce((sum, slot) => sum + slot.memoryBytes, 0),
        replaced,
        runs,
      }
    },
    async close() {
      closed = true
      for (const job of queue.drain()) answer(job, unavailable('the code sandbox is closed'))
      const stopping = slots.splice(0)
      for (const slot of stopping) {
        if (slot.job) answer(slot.job, unavailable('the code sandbox is closed'))
      }
      await Promise.all(stopping.map((slot) => slot.worker.terminate()))
    },
  }
}

export type WorkerPool = ReturnType<typeof createWorkerPool>
