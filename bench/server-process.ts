/**
 * One server of the benchmark, in a process of its own so that it does not share a core with
 * the load generator. The parent forks this file, sends a `start` message, and reads back the
 * server's URL (or an error); a `cpu` message asks for the CPU time it has used so far; a
 * `close` message, or the parent going away, stops it.
 */
import type { BaselineInput } from './baseline.ts'
import { appEnvironment } from './environment.ts'

export type StartMessage =
  | {
      type: 'start'
      server: 'app'
      dataDir: string
      pageCacheMaxEntries?: number
      /** Settings beyond the benchmark's defaults (environment.ts). */
      environment?: Record<string, string>
    }
  | { type: 'start'; server: 'baseline'; input: BaselineInput }
  /** The storage benchmark's peers: s3rver (npm) on a directory, and the discarding ceiling. */
  | { type: 'start'; server: 's3rver'; dataDir: string; bucket: string }
  | { type: 'start'; server: 'discard-s3'; dataDir: string }
  /** The realtime benchmark's bare `ws` relay (ws-relay.ts), joined to others through Redis. */
  | {
      type: 'start'
      server: 'ws-relay'
      redisUrl?: string
      channel?: string
      dataDir: string
      databaseUrl?: string
    }

export type ReplyMessage =
  | { type: 'ready'; url: string }
  | { type: 'failed'; error: string }
  /** CPU time (user + system) this process has used so far, in microseconds. */
  | { type: 'cpu'; micros: number }
  /** Memory after a full garbage collection, in bytes. */
  | { type: 'memory'; rss: number; heapUsed: number }

export type ControlMessage =
  | { type: 'cpu' }
  | { type: 'memory' }
  | { type: 'close' }
  /** An event for these users' sockets, published from inside the server (bench/realtime.ts). */
  | { type: 'publish'; userIds: string[]; event: { type: string; data: unknown } }

let running: { close(): Promise<unknown> } | undefined
let publish: ((userIds: string[], event: { type: string; data: unknown }) => void) | undefined

function send(message: ReplyMessage): void {
  process.send?.(message)
}

async function start(message: StartMessage): Promise<string> {
  // React picks its development or production build from NODE_ENV when first imported.
  if (process.env.NODE_ENV !== 'production') throw new Error('NODE_ENV must be production')
  if (message.server === 'baseline') {
    const { startBaseline } = await import('./baseline.ts')
    const baseline = await startBaseline(message.input)
    running = baseline.app
    return baseline.url
  }
  if (message.server === 'ws-relay') {
    const { startWsRelay } = await import('./ws-relay.ts')
    const relay = await startWsRelay(message)
    running = relay
    publish = relay.publish
    return relay.url
  }
  if (message.server === 'discard-s3') {
    const { startDiscardS3 } = await import('./discard-s3.ts')
    const discard = await startDiscardS3(message.dataDir)
    running = { close: () => new Promise((resolve) => discard.server.close(resolve)) }
    return discard.url
  }
  if (message.server === 's3rver') {
    const { default: S3rver } = await import('s3rver')
    const s3rver = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: message.dataDir,
      configureBuckets: [{ name: message.bucket }],
    })
    const { port } = await s3rver.run()
    running = s3rver
    return `http://127.0.0.1:${port}`
  }
  // As server/main.ts does before anything else.
  await import('#server/gc-tuning.ts')
  const { loadConfig } = await import('#server/config.ts')
  const { startServer } = await import('#server/start.ts')
  const config = loadConfig({
    ...appEnvironment(message.dataDir, message.pageCacheMaxEntries),
    ...message.environment,
  })
  const server = await startServer(config, { logger: false })
  running = server.app
  publish = (userIds, event) => server.app.realtime.publish(userIds, event)
  return server.url.replace('localhost', '127.0.0.1')
}

async function stop(): Promise<void> {
  await running?.close()
  process.exit(0)
}

process.on('message', (message: StartMessage | ControlMessage) => {
  if (message.type === 'close') {
    void stop()
    return
  }
  if (message.type === 'publish') {
    publish?.(message.userIds, message.event)
    return
  }
  if (message.type === 'memory') {
    // Forked with --expose-gc (servers.ts): what stays is what the server holds.
    ;(globalThis as { gc?: () => void }).gc?.()
    const { rss, heapUsed } = process.memoryUsage()
    send({ type: 'memory', rss, heapUsed })
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
