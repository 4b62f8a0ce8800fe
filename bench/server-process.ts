/**
 * One server of the benchmark, in a process of its own so that it does not share a core with
 * the load generator. The parent forks this file, sends a `start` message, and reads back the
 * server's URL (or an error); a `cpu` message asks for the CPU time it has used so far; a
 * `close` message, or the parent going away, stops it.
 */
import type { FastifyInstance } from 'fastify'
import type { BaselineInput } from './baseline.ts'
import { appEnvironment } from './environment.ts'

export type StartMessage =
  | { type: 'start'; server: 'app'; dataDir: string; pageCacheMaxEntries?: number }
  | { type: 'start'; server: 'baseline'; input: BaselineInput }

export type ReplyMessage =
  | { type: 'ready'; url: string }
  | { type: 'failed'; error: string }
  /** CPU time (user + system) this process has used so far, in microseconds. */
  | { type: 'cpu'; micros: number }

export type ControlMessage = { type: 'cpu' } | { type: 'close' }

let app: FastifyInstance | undefined

function send(message: ReplyMessage): void {
  process.send?.(message)
}

async function start(message: StartMessage): Promise<string> {
  // React picks its development or production build from NODE_ENV when first imported.
  if (process.env.NODE_ENV !== 'production') throw new Error('NODE_ENV must be production')
  if (message.server === 'baseline') {
    const { startBaseline } = await import('./baseline.ts')
    const baseline = await startBaseline(message.input)
    app = baseline.app
    return baseline.url
  }
  const { loadConfig } = await import('../server/config.ts')
  const { startServer } = await import('../server/start.ts')
  const config = loadConfig(appEnvironment(message.dataDir, message.pageCacheMaxEntries))
  const server = await startServer(config, { logger: false })
  app = server.app
  return server.url.replace('localhost', '127.0.0.1')
}

async function stop(): Promise<void> {
  await app?.close()
  process.exit(0)
}

process.on('message', (message: StartMessage | ControlMessage) => {
  if (message.type === 'close') {
    void stop()
    return
  }
  if (message.type === 'cpu') {
    const usage = process.cpuUsage()
    send({ type: 'cpu', micros: usage.user + usage.system })
    return
  }
  start(message).then(
    (url) => send({ type: 'ready', url }),
    (error: unknown) => {
      send({ type: 'failed', error: error instanceof Error ? error.message : String(error) })
      process.exit(1)
    },
  )
})
process.on('disconnect', () => void stop())
