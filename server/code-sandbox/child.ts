// What both engines' child processes share (pool.ts starts them): the start data, the pipe to
// the pool, and the powers taken away before any learner code runs.
import { createRequire, syncBuiltinESMExports } from 'node:module'
import type { RunMessage, WorkerMessage, WorkerStart } from '#server/code-sandbox/protocol.ts'

const require = createRequire(import.meta.url)

/** Modules that reach outside the process: the permission model leaves sockets open. */
export const OUTWARD_MODULES = [
  'node:child_process',
  'node:net',
  'node:tls',
  'node:dgram',
  'node:http',
  'node:https',
  'node:http2',
  'node:dns',
  'node:cluster',
  'node:inspector',
  'node:fs',
  'node:fs/promises',
  'node:worker_threads',
] as const

/**
 * The start data, once it is certain that this process runs as the pool starts it: under the
 * permission model without child processes, workers, addons, WASI or file writes, with a pipe
 * to its parent. Anything else (a mistaken start) runs nothing.
 */
export function childStart(): WorkerStart {
  const permission = (process as { permission?: { has(scope: string): boolean } }).permission
  if (!permission || typeof process.send !== 'function') {
    throw new Error('the sandbox runs only as a child process under the permission model')
  }
  for (const scope of ['child', 'worker', 'addon', 'wasi', 'fs.write']) {
    if (permission.has(scope)) throw new Error(`the sandbox must not have the ${scope} permission`)
  }
  return JSON.parse(process.argv[2] ?? '') as WorkerStart
}

/** One message to the pool, resolved once it is on the pipe. */
/** CPU time this process has used so far, in milliseconds: what starting it cost. */
export function startCpuMs(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

export function send(message: WorkerMessage): Promise<void> {
  return new Promise((resolve) => {
    process.send?.(message, undefined, {}, () => resolve())
  })
}

/** Answers each run the pool sends with `run`'s reply. */
export function serve(run: (message: RunMessage) => WorkerMessage | Promise<WorkerMessage>) {
  process.on('message', async (message: RunMessage) => {
    await send(await run(message))
  })
}

export const refused = (what: string) => () => {
  throw new Error(`${what} is not available in the sandbox`)
}

/**
 * Every function of the modules that reach outside (OUTWARD_MODULES) throws, and it is checked
 * that they do: call once the engine has loaded (Node's own modules build on each other's
 * classes as they load).
 */
export function disableOutwardModules() {
  const modules = OUTWARD_MODULES.map((name) => [name, require(name)] as const)
  for (const [name, exports] of modules as [string, Record<string, unknown>][]) {
    for (const [key, property] of Object.entries(Object.getOwnPropertyDescriptors(exports))) {
      // Lazily loaded classes (getters) are left: they do nothing without the functions.
      if (property.writable && typeof property.value === 'function') {
        exports[key] = refused(`${name}.${key}`)
      }
    }
  }
  // The ES module views of these modules (`import('node:net')`) follow the change.
  syncBuiltinESMExports()
  for (const [name, call] of [
    ['node:net', () => require('node:net').connect(1, '127.0.0.1')],
    ['node:dgram', () => require('node:dgram').createSocket('udp4')],
    ['node:child_process', () => require('node:child_process').spawn('true')],
  ] as const) {
    let disabled = false
    try {
      call()
    } catch {
      disabled = true
    }
    if (!disabled) throw new Error(`${name} is still usable in the sandbox`)
  }
}

/** Ceiling on every WebAssembly memory: allocations past it fail inside the engine. */
export function capWasmMemory(maxBytes: number) {
  const grow = WebAssembly.Memory.prototype.grow
  WebAssembly.Memory.prototype.grow = function (this: WebAssembly.Memory, pages: number) {
    if (this.buffer.byteLength + pages * 65_536 > maxBytes) {
      throw new RangeError('the sandbox memory limit is reached')
    }
    return grow.call(this, pages)
  }
}

/** Why a child could not start, for the pool to pass on. */
export function failed(error: unknown) {
  void send({ kind: 'failed', reason: error instanceof Error ? error.message : String(error) })
}
