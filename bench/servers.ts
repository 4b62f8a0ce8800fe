/**
 * The servers a benchmark measures, each in a process of its own (server-process.ts) so that
 * it does not share a core with the load generator.
 */
import { type ChildProcess, fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { ControlMessage, ReplyMessage, StartMessage } from './server-process.ts'

const START_TIMEOUT_MS = 60_000

export type Server = {
  name: string
  url: string
  /** CPU time the server's process has used so far, in microseconds. */
  cpuMicros(): Promise<number>
  /** The server process's memory after a full garbage collection. */
  memory(): Promise<{ rss: number; heapUsed: number }>
  /** Has the server publish an event to these users' sockets (the app and the bare ws relay). */
  publish(userIds: string[], event: { type: string; data: unknown }): void
  close(): Promise<void>
}

export class BenchError extends Error {
  override name = 'BenchError'
}

/** Forks server-process.ts, starts one server in it, and resolves once it listens. */
export function startServer(
  cpuProfDir: string | undefined,
  name: string,
  message: StartMessage,
): Promise<Server> {
  const entry = fileURLToPath(new URL('./server-process.ts', import.meta.url))
  const profiling = message.server === 'app' && cpuProfDir !== undefined
  const child = fork(entry, [], {
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [
      // Only the `memory` message collects garbage, to measure what the server holds.
      '--expose-gc',
      ...(profiling ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : []),
    ],
  })
  return new Promise((resolve, reject) => {
    const fail = (reason: string) => {
      clearTimeout(timer)
      child.kill()
      reject(new BenchError(`${name} failed to start: ${reason}`))
    }
    const timer = setTimeout(() => fail(`no answer in ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS)
    child.once('exit', (code, signal) => fail(`exited (${signal ?? `code ${code}`})`))
    child.once('error', (error) => fail(error.message))
    child.once('message', (reply: ReplyMessage) => {
      if (reply.type !== 'ready') return fail(reply.type === 'failed' ? reply.error : 'no URL')
      clearTimeout(timer)
      child.removeAllListeners('exit')
      resolve({
        name,
        url: reply.url,
        cpuMicros: () => ask(name, child, 'cpu').then((reply) => reply.micros),
        memory: () => ask(name, child, 'memory'),
        publish: (userIds, event) =>
          child.send({ type: 'publish', userIds, event } satisfies ControlMessage),
        close: () => stopChild(child),
      })
    })
    child.send(message)
  })
}

/** Asks the server's process a question (`cpu`, `memory`) and resolves with its answer. */
function ask<T extends 'cpu' | 'memory'>(
  name: string,
  child: ChildProcess,
  type: T,
): Promise<Extract<ReplyMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const exited = () => reject(new BenchError(`${name} exited during the run`))
    const listen = (reply: ReplyMessage) => {
      if (reply.type !== type) return
      child.off('message', listen)
      child.off('exit', exited)
      resolve(reply as Extract<ReplyMessage, { type: T }>)
    }
    if (!child.connected) return exited()
    child.on('message', listen)
    child.once('exit', exited)
    child.send({ type } satisfies ControlMessage)
  })
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000)
    child.once('exit', () => {
      clearTimeout(force)
      resolve()
    })
    if (child.connected) child.send({ type: 'close' } satisfies ControlMessage)
    else child.kill()
  })
}

/** Runs a benchmark's main and exits with its code; a BenchError is printed without a stack. */
export function runBench(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof BenchError ? `bench: ${error.message}` : error)
      process.exit(1)
    },
  )
}
