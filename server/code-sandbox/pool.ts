import { type ChildProcess, fork } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { CodeRunRequest, CodeRunResult } from '#features/exercises/code-run.ts'
import { createFairQueue } from '#server/code-sandbox/fair-queue.ts'
import type { RunMessage, WorkerMessage, WorkerStart } from '#server/code-sandbox/protocol.ts'

export type PoolOptions = {
  /** The child's module (quickjs-worker.ts or pyodide-worker.ts). */
  workerUrl: URL
  /** Child processes running learners' code at once; started on the first runs, never before. */
  size: number
  /** Runs waiting for a child at most, every learner together (fair-queue.ts). */
  maxQueued: number
  /** Run time one learner may use in a sliding minute before being over share. */
  runMsPerLearnerPerMinute: number
  /** Runs one learner may have waiting before being over share. */
  queuedPerLearner: number
  /** Longest a run waits for a child (loading the engine included) before 'unavailable'. */
  maxWaitMs: number
  /**
   * How long past its time limit a run may take to answer before its child is killed (and
   * replaced): the engines stop themselves at the limit, this is for what they miss.
   */
  graceMs: number
  /** The engine's heap for one run. */
  memoryLimitBytes: number
  /**
   * Files and folders the child may read (the permission model's --allow-fs-read): the engine's
   * package and the sandbox's own modules, nothing else.
   */
  readable: readonly string[]
  /** Node options of the child: its JavaScript heap and stack. */
  nodeOptions: readonly string[]
  /** Python: children start from a memory snapshot made once by a child of its own. */
  snapshot: boolean
  /**
   * Whether one child serves one submission and is then killed (Python: what a run leaves in
   * the interpreter cannot all be put back), with one more child kept starting so that the
   * next submission does not wait for it; or runs on, each submission in a fresh engine
   * instance (JavaScript).
   */
  childPerSubmission: boolean
}

export type PoolStats = {
  workers: number
  busy: number
  queued: number
  /** What the children hold: their engines' WebAssembly memory and their JavaScript heaps. */
  memoryBytes: number
  /** Children killed (a run that did not stop, a crash) and replaced since the start. */
  replaced: number
  /** Runs a child answered since the start. */
  runs: number
}

/** Whose run it is: a signed-in user's id, a guest's client address; none for the server's own. */
export type RunOptions = { learner?: string | undefined }

/**
 * The runs of one submission (its tests): they share one child, which no other submission
 * ever gets (pool.session()).
 */
export type Session = { slot?: Slot; ended: boolean }

type Job = {
  id: number
  request: CodeRunRequest
  learner: string | undefined
  /** Counts the run's time against its learner once it ends (set when it starts). */
  done?: () => void
  resolve: (result: CodeRunResult) => void
  session?: Session
  waitTimer?: NodeJS.Timeout
  timers: NodeJS.Timeout[]
}

type Slot = {
  child?: ChildProcess
  ready: boolean
  memoryBytes: number
  job?: Job
  /** The submission this child serves, between its runs. */
  session?: Session
  /** It has run learner code: with a child per submission, it runs nothing more for anyone else. */
  used: boolean
  /** The CPU time the child took to start (a child per submission: that submission's cost). */
  startCpuMs: number
}

/** Every child's Node options: the permission model, nothing granted beyond reading. */
function childArguments(options: PoolOptions, extraReadable: string[]) {
  return [
    '--permission',
    ...[...options.readable, ...extraReadable].map((file) => `--allow-fs-read=${file}`),
    ...options.nodeOptions,
  ]
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
 * A few child processes running one language's engine, one run each at a time, and a bounded
 * queue in front of them (decision 033) that serves learners in turn (fair-queue.ts, decision
 * 045). Every run answers: a result, or 'unavailable' when the wait is too long or the pool
 * closed, with `retryAfterMs` when its learner is over their share; a child that does not stop
 * at a run's limit, or dies, is killed and replaced. With a child per submission, every child is killed
 * once its submission is done and a fresh one started in its place.
 */
export function createWorkerPool(options: PoolOptions) {
  // Long by design: a factory whose returned methods share its private state; each method is short.
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
  /** Python: the memory snapshot's file, made once (a folder of its own, removed on close). */
  let snapshot: Promise<{ folder: string; file: string }> | undefined
  /** Every child not yet gone, retired ones included: close() waits for them all. */
  const living = new Set<ChildProcess>()

  const answer = (job: Job, result: CodeRunResult) => {
    clearTimeout(job.waitTimer)
    for (const timer of job.timers) clearTimeout(timer)
    job.done?.()
    job.resolve(result)
  }

  const kill = (child: ChildProcess | undefined) => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }

  const remove = (slot: Slot) => {
    const index = slots.indexOf(slot)
    if (index >= 0) slots.splice(index, 1)
    if (slot.session) slot.session.slot = undefined
    kill(slot.child)
  }

  /** A child of this pool's kind: an empty environment, a pipe, nothing else granted. */
  const startChild = (start: WorkerStart, extraReadable: string[]) => {
    const child = fork(fileURLToPath(options.workerUrl), [JSON.stringify(start)], {
      execPath: process.execPath,
      execArgv: childArguments(options, extraReadable),
      // Nothing of the server's environment (secrets included) is there to read.
      env: {},
      cwd: path.dirname(fileURLToPath(options.workerUrl)),
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    })
    living.add(child)
    child.once('exit', () => living.delete(child))
    // The last of what it wrote to stderr: why it could not start, when it could not.
    let stderr = ''
    child.stderr?.setEncoding('utf8')
    child.stderr?.on('data', (text: string) => {
      stderr = (stderr + text).slice(-2_000)
    })
    return { child, stderr: () => stderr.trim().split('\n').at(-1) ?? '' }
  }

  const snapshotFile = () => {
    snapshot ??= (async () => {
      const maker = startChild({ memoryLimitBytes: options.memoryLimitBytes, snapshot: 'make' }, [])
      const bytes = await new Promise<Uint8Array>((resolve, reject) => {
        maker.child.on('message', (message: WorkerMessage) => {
          if (message.kind === 'snapshot') resolve(message.bytes)
          else if (message.kind === 'failed') reject(new Error(message.reason))
        })
        maker.child.on('exit', (code, signal) =>
          reject(new Error(maker.stderr() || `exit code ${code ?? signal}`)),
        )
      }).finally(() => kill(maker.child))
      const folder = await mkdtemp(path.join(tmpdir(), 'techlab-sandbox-'))
      const file = path.join(folder, 'python.snapshot')
      await writeFile(file, bytes, { mode: 0o400 })
      return { folder, file }
    })()
    // A failed attempt is tried again by the next run, not remembered.
    snapshot.catch(() => {
      snapshot = undefined
    })
    return snapshot
  }

  const spawn = () => {
    const slot: Slot = { ready: false, memoryBytes: 0, used: false, startCpuMs: 0 }
    slots.push(slot)
    void connect(slot)
  }

  const connect = async (slot: Slot) => {
    const start: WorkerStart = { memoryLimitBytes: options.memoryLimitBytes }
    const readable: string[] = []
    if (options.snapshot) {
      start.seed = randomBytes(16).toString('hex')
      try {
        start.snapshot = (await snapshotFile()).file
      } catch (error) {
        failedToStart(slot, error instanceof Error ? error.message : String(error))
        return
      }
      readable.push(start.snapshot)
    }
    if (!slots.includes(slot)) return
    const { child, stderr } = startChild(start, readable)
    slot.child = child
    // An idle child never keeps the process alive; a busy one does (ref'd while it runs).
    unref(slot)
    child.on('message', (message: WorkerMessage) => {
      if (message.kind === 'ready') {
        slot.ready = true
        slot.startCpuMs = message.startCpuMs
        slot.memoryBytes = message.memoryBytes
      } else if (message.kind === 'failed') {
        failedToStart(slot, message.reason)
        return
      } else if (message.kind === 'result' && slot.job?.id === message.id) {
        const job = slot.job
        slot.job = undefined
        slot.memoryBytes = message.memoryBytes
        runs++
        unref(slot)
        if (message.replace) {
          // Not clean enough for another run, even of the same submission.
          remove(slot)
          replaced++
          refill()
        } else if (!job.session || job.session.ended) retire(slot)
        answer(job, message.result)
      }
      pump()
    })
    child.on('error', (error) => ended(slot, error.message))
    child.on('exit', (code, signal) => ended(slot, stderr() || `exit code ${code ?? signal}`))
  }

  const unref = (slot: Slot) => {
    slot.child?.unref()
    ;(slot.child?.channel as { unref?: () => void } | undefined)?.unref?.()
  }
  const ref = (slot: Slot) => {
    slot.child?.ref()
    ;(slot.child?.channel as { ref?: () => void } | undefined)?.ref?.()
  }

  /** Children at most: those running, and with a child per submission one starting. */
  const capacity = options.size + (options.childPerSubmission ? 1 : 0)
  const reserved = (slot: Slot) => slot.job !== undefined || slot.session !== undefined

  /** Keeps as many children as have been needed, ready for the next submissions. */
  const refill = () => {
    if (!closed && slots.length < capacity) spawn()
  }

  /** Its submission is done: with a child per submission, it goes and a fresh one comes. */
  const retire = (slot: Slot) => {
    if (slot.session) slot.session.slot = undefined
    slot.session = undefined
    if (!options.childPerSubmission) return
    remove(slot)
    refill()
  }

  const failedToStart = (slot: Slot, reason: string) => {
    remove(slot)
    // No child can start: everything waiting is told so, rather than retrying forever.
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
      // The program brought its child down (memory, most likely): its run failed.
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
    refill()
    pump()
  }

  const dispatch = (slot: Slot, job: Job) => {
    clearTimeout(job.waitTimer)
    // A submission's later runs follow its first on the same child.
    const fresh = !job.session || job.session.slot !== slot
    // A child that serves one submission was started for it: its start counts against the
    // learner like run time, or a flood of quick submissions would cost the pool a start each
    // and its senders nothing.
    if (fresh && options.childPerSubmission) queue.charge(job.learner, slot.startCpuMs)
    slot.job = job
    slot.used = true
    if (job.session && !job.session.ended) {
      slot.session = job.session
      job.session.slot = slot
    }
    ref(slot)
    const { timeLimitMs } = job.request
    job.timers.push(
      setTimeout(() => {
        if (slot.job !== job) return
        // Still going after the grace: the engine missed the limit; the child goes.
        slot.job = undefined
        remove(slot)
        replaced++
        answer(job, { outcome: 'timeout', stdout: '', stderr: '', durationMs: timeLimitMs })
        refill()
        pump()
      }, timeLimitMs + options.graceMs),
    )
    slot.child?.send({ id: job.id, request: job.request, fresh } satisfies RunMessage)
  }

  const idle = (slot: Slot) =>
    slot.ready && !slot.job && !slot.session && !(options.childPerSubmission && slot.used)

  let pumping = false
  /**
   * Hands out idle children once the current turn of the event loop is over, so that every run
   * that arrives in the same turn is waiting too and takes its turn (fair-queue.ts).
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
      const free = slots.filter(reserved).length < options.size && slots.find(idle)
      if (free) {
        const { item, done } = queue.next() as NonNullable<ReturnType<typeof queue.next>>
        item.done = done
        dispatch(free, item)
        continue
      }
      const starting = slots.filter((slot) => !slot.ready).length
      if (slots.length < capacity && starting < queue.size) spawn()
      else return
    }
  }

  const run = (
    request: CodeRunRequest,
    { learner }: RunOptions,
    session?: Session,
  ): Promise<CodeRunResult> => {
    if (closed) return Promise.resolve(unavailable('the code sandbox is closed'))
    const own = session?.slot
    if (own && slots.includes(own) && own.ready && !own.job) {
      // The submission's next test: on its own child, without queueing again, its time
      // counted against its learner all the same.
      return new Promise((resolve) => {
        const job: Job = { id: nextId++, request, learner, resolve, session, timers: [] }
        job.done = queue.started(learner)
        dispatch(own, job)
      })
    }
    return new Promise((resolve) => {
      const job: Job = { id: nextId++, request, learner, resolve, session, timers: [] }
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
  }

  return {
    run: (request: CodeRunRequest, runOptions: RunOptions = {}) => run(request, runOptions),
    /**
     * The runs of one submission (its tests), on one child of their own; `end()` once they
     * are done, and that child serves no one else.
     */
    session(runOptions: RunOptions = {}) {
      const session: Session = { ended: false }
      return {
        run: (request: CodeRunRequest) => run(request, runOptions, session),
        end() {
          session.ended = true
          const slot = session.slot
          if (slot && !slot.job) {
            retire(slot)
            pump()
          }
        },
      }
    },
    /** Starts a child now if none is there, so the first run does not wait for the engine. */
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
      await Promise.all(
        [...living].map((child) => {
          const exited = new Promise((resolve) => child.once('exit', resolve))
          // Held until it has gone: an idle child is unref'd, and its exit would go unheard.
          child.ref()
          child.kill('SIGKILL')
          return exited
        }),
      )
      const made = await snapshot?.catch(() => undefined)
      if (made) await rm(made.folder, { recursive: true, force: true })
    },
  }
}

export type WorkerPool = ReturnType<typeof createWorkerPool>
