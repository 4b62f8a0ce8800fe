// A worker thread of the JavaScript pool: QuickJS loaded once, one run at a time (pool.ts).
import { getHeapStatistics } from 'node:v8'
import { parentPort, workerData } from 'node:worker_threads'
import type { RunMessage, WorkerMessage, WorkerStart } from '#server/code-sandbox/protocol.ts'
import { loadQuickJsRunner } from '#server/code-sandbox/quickjs-runner.ts'

const port = parentPort
if (!port) throw new Error('quickjs-worker.ts runs as a worker thread')
const start = workerData as WorkerStart

const send = (message: WorkerMessage) => port.postMessage(message)

try {
  // The pool gives this thread a 16 MB stack (sandbox.ts): room for 1 MB of the engine's.
  const runner = await loadQuickJsRunner({
    memoryLimitBytes: start.memoryLimitBytes,
    stackSizeBytes: 1024 * 1024,
  })
  const memoryBytes = () => getHeapStatistics().used_heap_size + runner.wasmMemoryBytes()
  port.on('message', ({ id, request }: RunMessage) => {
    const result = runner.run(request)
    send({ kind: 'result', id, result, memoryBytes: memoryBytes(), replace: runner.broken() })
  })
  send({ kind: 'ready', memoryBytes: memoryBytes() })
} catch (error) {
  send({ kind: 'failed', reason: error instanceof Error ? error.message : String(error) })
}
