import { createHash } from 'node:crypto'
import { Worker } from 'node:worker_threads'
import type { MarkdownFlavour } from '#features/markdown/render.ts'
import type { RenderReply, RenderRequest, RenderTask } from '#features/markdown/render-worker.ts'
import type { MarkdownRenderer } from '#features/markdown/stored-html.server.ts'

/**
 * Rendering a text gets this long on the renderer's thread (MARKDOWN_RENDER_DEADLINE_MS); then
 * the thread is stopped and the text shown unrendered. The structure bounds
 * (features/markdown/structure.ts) refuse the known bombs at save, so this only catches what
 * they miss and texts stored before them. The largest ordinary texts measured take seconds.
 */
export const RENDER_DEADLINE_MS = 10_000

/** A text that failed is not tried again for this long (each try costs up to the deadline). */
const FAILURE_MEMORY_MS = 10 * 60_000
const REMEMBERED_FAILURES = 1000

export class RenderFailedError extends Error {}

/**
 * User Markdown rendered on one worker thread, one text at a time, each within `deadlineMs`
 * (decision 022): however a text behaves, the thread that answers requests never runs the
 * renderer. The same holds for reading a body's image addresses when it is saved (decision
 * 047). Texts asked for while one renders wait their turn; the same text asked for twice at
 * once is rendered once.
 */
export function createMarkdownRenderer(
  options: { deadlineMs?: number } = {},
): MarkdownRenderer & { close(): Promise<void> } {
  // Long by design: a factory whose returned methods share its private state; each method is short.
  const deadlineMs = options.deadlineMs ?? RENDER_DEADLINE_MS
  type Answer = string | string[]
  type Job = {
    id: number
    task: RenderTask
    source: string
    flavour: MarkdownFlavour
    resolve: (answer: Answer) => void
    reject: (error: Error) => void
  }
  const queue: Job[] = []
  const underWay = new Map<string, Promise<Answer>>()
  const failed = new Map<string, number>()
  let worker: Worker | undefined
  let ready = false
  let current: { job: Job; timer: NodeJS.Timeout } | undefined
  let nextId = 0

  const stop = (thread: Worker | undefined) => {
    if (worker === thread) {
      worker = undefined
      ready = false
    }
    void thread?.terminate()
  }
  const finish = (outcome: { answer: Answer } | { error: Error }) => {
    if (!current) return
    clearTimeout(current.timer)
    const { job } = current
    current = undefined
    if ('answer' in outcome) job.resolve(outcome.answer)
    else job.reject(outcome.error)
    pump()
  }
  const start = () => {
    const thread = new Worker(new URL('../features/markdown/render-worker.ts', import.meta.url))
    // A render under way never keeps the process alive.
    thread.unref()
    thread.on('message', (message: 'ready' | RenderReply) => {
      if (message === 'ready') {
        ready = true
        pump()
      } else if (current?.job.id === message.id) {
        if ('error' in message) finish({ error: new RenderFailedError(message.error) })
        else finish({ answer: 'html' in message ? message.html : message.images })
      }
    })
    const broken = (error: Error) => {
      if (worker !== thread) return
      stop(thread)
      // A thread that cannot even start fails everything waiting, rather than restarting forever.
      if (!current) for (const job of queue.splice(0)) job.reject(error)
      finish({ error })
    }
    thread.on('error', broken)
    thread.on('exit', (code) => broken(new RenderFailedError(`renderer stopped (${code})`)))
    return thread
  }
  const pump = () => {
    if (current || queue.length === 0) return
    worker ??= start()
    if (!ready) return
    const job = queue.shift() as Job
    const thread = worker
    const timer = setTimeout(() => {
      stop(thread)
      finish({ error: new RenderFailedError(`not rendered within ${deadlineMs} ms`) })
    }, deadlineMs)
    current = { job, timer }
    thread.postMessage({
      id: job.id,
      task: job.task,
      source: job.source,
      flavour: job.flavour,
    } satisfies RenderRequest)
  }

  const runOnce = (task: RenderTask, source: string, flavour: MarkdownFlavour, key: string) =>
    new Promise<Answer>((resolve, reject) => {
      queue.push({ id: nextId++, task, source, flavour, resolve, reject })
      pump()
    }).catch((error: Error) => {
      if (failed.size >= REMEMBERED_FAILURES) failed.clear()
      failed.set(key, Date.now() + FAILURE_MEMORY_MS)
      throw error
    })

  const run = (task: RenderTask, source: string, flavour: MarkdownFlavour) => {
    const key = createHash('sha256').update(`${task}\n${flavour}\n${source}`).digest('hex')
    const until = failed.get(key)
    if (until !== undefined && until > Date.now()) {
      return Promise.reject(new RenderFailedError('failed recently'))
    }
    let running = underWay.get(key)
    if (!running) {
      running = runOnce(task, source, flavour, key).finally(() => underWay.delete(key))
      underWay.set(key, running)
    }
    return running
  }

  return {
    render: (source, flavour = 'full') => run('html', source, flavour) as Promise<string>,
    imageSources: (source) =>
      source.trim() === ''
        ? Promise.resolve([])
        : (run('images', source, 'full') as Promise<string[]>),
    async close() {
      const thread = worker
      worker = undefined
      for (const job of queue.splice(0)) job.reject(new RenderFailedError('renderer closed'))
      finish({ error: new RenderFailedError('renderer closed') })
      await thread?.terminate()
    },
  }
}
