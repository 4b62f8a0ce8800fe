import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { FastifyInstance } from 'fastify'
import type { ServerBuild } from 'react-router'
import { type Database, openDatabase } from '../db/database.ts'
import { migrateToLatest } from '../db/migrate.ts'
import { isEmpty, seedDemoContent } from '../db/seed/seed.ts'
import { buildServer, type ServerOptions } from './app.ts'
import type { Config } from './config.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const BUILD_DIRECTORY = path.join(root, 'build')

export type RunningServer = { app: FastifyInstance; url: string; database: Database }

/** Opens the database, brings it up to date, and starts listening. */
export async function startServer(
  config: Config,
  options: { logger?: boolean } = {},
): Promise<RunningServer> {
  const database = openDatabase(config.database)
  try {
    await migrateToLatest(database.db)
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
    await app.listen({ host: config.host, port: config.port })
    const address = app.server.address()
    const port = typeof address === 'object' && address ? address.port : config.port
    return { app, url: `http://localhost:${port}`, database }
  } catch (error) {
    await database.close()
    throw error
  }
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
