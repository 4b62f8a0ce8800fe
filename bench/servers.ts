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
    execArgv: profiling ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : [],
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
        cpuMicros: () => askCpu(name, child),
        close: () => stopChild(child),
      })
    })
    child.send(message)
  })
}

function askCpu(name: string, child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    const exited = () => reject(new BenchError(`${name} exited during the run`))
    const listen = (reply: ReplyMessage) => {
      if (reply.type !== 'cpu') return
      child.off('message', listen)
      child.off('exit', exited)
      resolve(reply.micros)
    }
    if (!child.connected) return exited()
    child.on('message', listen)
    child.once('exit', exited)
    child.send({ type: 'cpu' } satisfies ControlMessage)
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
