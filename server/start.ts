import { existsSync } from 'node:fs'
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { FastifyInstance } from 'fastify'
import type { ServerBuild } from 'react-router'
import { type Database, openDatabase } from '../db/database.ts'
import { migrateToLatest } from '../db/migrate.ts'
import { isEmpty, seedDemoContent } from '../db/seed/seed.ts'
import { pruneRenderedMarkdown } from '../features/markdown/stored-html.server.ts'
import { buildServer, type ServerOptions } from './app.ts'
import type { Config } from './config.ts'
import { loadCertificate } from './tls.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const BUILD_DIRECTORY = path.join(root, 'build')

export type RunningServer = {
  app: FastifyInstance
  url: string
  /** The TLS listener's address, when HTTPS_PORT is set. */
  httpsUrl: string | undefined
  database: Database
}

/** Opens the database, brings it up to date, and starts listening. */
export async function startServer(
  config: Config,
  options: { logger?: boolean } = {},
): Promise<RunningServer> {
  const database = openDatabase(config.database)
  try {
    await migrateToLatest(database.db)
    await pruneRenderedMarkdown(database.db)
    if (
      config.database.kind === 'sqlite' &&
      config.seedDemoContent === 'auto' &&
      (await isEmpty(database.db))
    ) {
      await seedDemoContent(database.db)
    }
    const app = await buildServer({
      config,
      database,
      logger: options.logger,
      ...(await appBuild(config)),
    })
    const tls = config.https && (await tlsListener(app, config.https))
    await app.listen({ host: config.host, port: config.port })
    const port = portOf(app.server.address(), config.port)
    const httpsPort = tls && config.https && (await tls.listen(config.host, config.https.port))
    return {
      app,
      url: `http://localhost:${port}`,
      httpsUrl: httpsPort === undefined ? undefined : `https://localhost:${httpsPort}`,
      database,
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
  app.addHook('onClose', async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })
  return {
    listen: (host: string, port: number) =>
      new Promise<number>((resolve, reject) => {
        server.once('error', reject)
        server.listen({ host, port }, () => resolve(portOf(server.address(), port)))
      }),
  }
}

function portOf(address: ReturnType<HttpsServer['address']>, fallback: number): number {
  return typeof address === 'object' && address ? address.port : fallback
}

async function appBuild(
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
