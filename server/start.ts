import { existsSync } from 'node:fs'
import type { Server as HttpServer } from 'node:http'
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https'
import { Server as NetServer } from 'node:net'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { FastifyInstance } from 'fastify'
import type { ServerBuild } from 'react-router'
import { type Database, openDatabase } from '#db/database.ts'
import { migrateToLatest } from '#db/migrate.ts'
import { isEmpty, seedDemoContent } from '#db/seed/seed.ts'
import { pruneRenderedMarkdown } from '#features/markdown/stored-html.server.ts'
import { buildServer, type ServerOptions } from './app.ts'
import type { Config } from './config.ts'
import { loadCertificate } from './tls.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const BUILD_DIRECTORY = path.join(root, 'build')

/** How long a graceful stop waits for a request on an idle keep-alive connection. */
const IDLE_GRACE_MS = 500

export type RunningServer = {
  app: FastifyInstance
  url: string
  /** The TLS listener's address, when HTTPS_PORT is set. */
  httpsUrl: string | undefined
  /** The S3 endpoint's own origin, when STORAGE_LISTEN_PORT is set. */
  storageUrl: string | undefined
  database: Database
  /**
   * The first step of a graceful stop (then `app.close()`): stops accepting connections,
   * closes the idle keep-alive ones, answers every request already read (and any that arrive
   * on a connection still open) with `Connection: close`, and resolves once every connection
   * has ended. A keep-alive client therefore never has its connection cut under a request.
   */
  drain(): Promise<void>
}

/** Opens the database, brings it up to date, and starts listening. */
export async function startServer(
  config: Config,
  options: Pick<ServerOptions, 'logger' | 'prettyLogs' | 'now'> = {},
): Promise<RunningServer> {
  const database = openDatabase(config.database)
  try {
    await migrateToLatest(database.db)
    await pruneRenderedMarkdown(database.db)
    const app = await buildServer({
      config,
      database,
      logger: options.logger,
      prettyLogs: options.prettyLogs,
      now: options.now,
      ...(await appBuild(config)),
    })
    // After the app is built: the demo's drawn covers go to its object storage.
    if (
      config.database.kind === 'sqlite' &&
      config.seedDemoContent === 'auto' &&
      (await isEmpty(database.db))
    ) {
      await seedDemoContent(database.db, Date.now(), app.ownImages)
    }
    let draining = false
    app.addHook('onRequest', async (_request, reply) => {
      if (draining) reply.header('connection', 'close')
    })
    const tls = config.https && (await tlsListener(app, config.https))
    await app.listen({ host: config.host, port: config.port })
    const port = portOf(app.server.address(), config.port)
    const httpsPort = tls && config.https && (await tls.listen(config.host, config.https.port))
    let storagePort: number | undefined
    if (app.storageOrigin && config.storage.origin) {
      await app.storageOrigin.listen({ host: config.host, port: config.storage.origin.port })
      storagePort = portOf(app.storageOrigin.server.address(), config.storage.origin.port)
    }
    return {
      app,
      url: `http://${hostInUrl(config.host)}:${port}`,
      httpsUrl:
        httpsPort === undefined ? undefined : `https://${hostInUrl(config.host)}:${httpsPort}`,
      storageUrl:
        storagePort === undefined ? undefined : `http://${hostInUrl(config.host)}:${storagePort}`,
      database,
      async drain() {
        draining = true
        // Open WebSockets would hold the listener open until their clients leave.
        app.realtime.shutdown()
        await Promise.all([app.server, tls?.server].filter((server) => !!server).map(drained))
      },
    }
  } catch (error) {
    await database.close()
    throw error
  }
}

/**
 * The same app on a second, TLS port: Amplify's hosted sign-in (Google) only speaks https.
 * Requests go through Fastify's router exactly as on the plain port.
 */
async function tlsListener(app: FastifyInstance, https: NonNullable<Config['https']>) {
  const server: HttpsServer = createHttpsServer(await loadCertificate(https), (request, response) =>
    app.routing(request, response),
  )
  // WebSocket handshakes (/realtime) go where the plain port's go.
  server.on('upgrade', (request, socket, head) => app.server.emit('upgrade', request, socket, head))
  app.addHook('onClose', async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })
  return {
    server,
    listen: (host: string, port: number) =>
      new Promise<number>((resolve, reject) => {
        server.once('error', reject)
        server.listen({ host, port }, () => resolve(portOf(server.address(), port)))
      }),
  }
}

/**
 * The bound host as a URL names it: the address or name HOST gave; `localhost` for the
 * wildcard addresses, where that is the address a browser on the machine opens.
 */
export function hostInUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost'
  return host.includes(':') ? `[${host}]` : host
}

/**
 * Stops accepting and resolves once every connection has ended. A connection in use ends
 * after its next answer (`Connection: close`). Idle ones are closed only after a moment:
 * http's own close() would close them at once, cutting off a request a client is sending on
 * one that very moment (ECONNRESET), so the listener is closed as a plain net.Server.
 */
function drained(server: HttpServer | HttpsServer): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve()
    const idle = setTimeout(() => server.closeIdleConnections(), IDLE_GRACE_MS)
    NetServer.prototype.close.call(server, () => {
      clearTimeout(idle)
      resolve()
    })
  })
}

function portOf(address: ReturnType<HttpsServer['address']>, fallback: number): number {
  return typeof address === 'object' && address ? address.port : fallback
}

export async function appBuild(
  config: Config,
): Promise<Pick<ServerOptions, 'build' | 'clientDirectory' | 'devServer'>> {
  if (config.env === 'development') {
    // Vite is a development dependency: load it only when developing.
    const vite = await import('vite')
    const devServer = await vite.createServer({
      server: { middlewareMode: true },
      appType: 'custom',
    })
    return {
      build: () =>
        devServer.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>,
      devServer,
    }
  }
  const entry = path.join(BUILD_DIRECTORY, 'server', 'index.js')
  if (!existsSync(entry)) {
    throw new Error(`The app is not built (${entry} is missing): run "npm run build" first`)
  }
  const build = (await import(pathToFileURL(entry).href)) as ServerBuild
  return { build, clientDirectory: path.join(BUILD_DIRECTORY, 'client') }
}
