// A child process of the JavaScript pool (pool.ts): QuickJS compiled once, and every submission
// in an engine instance of its own (its own WebAssembly memory; each run a new runtime in it),
// so nothing of one submission is left where another could read it. Learner code reaches nothing of this process but console output and
// `input()` (quickjs-runner.ts); the permission model and the disabled outward modules bound
// what it could do should it ever get out of the engine.
import { getHeapStatistics } from 'node:v8'
import {
  childStart,
  disableOutwardModules,
  failed,
  send,
  serve,
  startCpuMs,
} from '#server/code-sandbox/child.ts'
import { compileQuickJs, type InThreadRunner } from '#server/code-sandbox/quickjs-runner.ts'

try {
  const start = childStart()
  const instantiate = await compileQuickJs()
  // The pool gives this process a larger stack (sandbox.ts): room for 1 MB of the engine's.
  const limits = { memoryLimitBytes: start.memoryLimitBytes, stackSizeBytes: 1024 * 1024 }
  // The next submission's instance is made while the process waits for it.
  let next: Promise<InThreadRunner> = instantiate(limits)
  let current = await next
  next = instantiate(limits)
  disableOutwardModules()
  const memoryBytes = () => getHeapStatistics().used_heap_size + current.wasmMemoryBytes()
  serve(async ({ id, request, fresh }) => {
    if (fresh) {
      current = await next
      next = instantiate(limits)
    }
    const result = current.run(request)
    // An engine that aborted (an endless chain of promise jobs) serves no further run.
    return { kind: 'result', id, result, memoryBytes: memoryBytes(), replace: current.broken() }
  })
  await send({ kind: 'ready', memoryBytes: memoryBytes(), startCpuMs: startCpuMs() })
} catch (error) {
  failed(error)
}
