/**
 * The bare baselines the benchmark compares the real server with: a Fastify instance with no
 * hooks, plugins, database, loaders or React Router request handling, serving
 *
 * - each API address it was given (`/api/courses`, a search): the real server's JSON, read once
 *   and serialised by Fastify per request;
 * - every page path it was given (`/`, `/courses`): a `renderToString` per request of the REAL
 *   app from its server build (`<ServerRouter>` over the build's own route modules), with the
 *   data the real loaders produced, captured once at start-up.
 *
 * The capture runs the real pipeline a single time per page (the app built in this process on
 * the benchmark's data directory, through `app.inject`), keeping the `EntryContext` React Router
 * hands the build's `handleRequest`; then the app and its database are closed. So the baseline
 * renders the same components, markup and data as the app by construction and cannot drift from
 * it; what it leaves out is exactly the per-request work the comparison is about (routing,
 * sessions, loaders and queries, React Router's data encoding, hooks, compression). The loader
 * data is still serialised per request (JSON), in place of React Router's streamed payload.
 */
import { randomBytes } from 'node:crypto'
import Fastify, { type FastifyInstance } from 'fastify'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { type EntryContext, type ServerBuild, ServerRouter } from 'react-router'
import { openDatabase } from '#db/database.ts'
import { buildServer } from '#server/app.ts'
import { loadConfig } from '#server/config.ts'
import { appBuild } from '#server/start.ts'
import { appEnvironment } from './environment.ts'

export type BaselineInput = {
  /** The benchmark's data directory, already migrated and seeded by the app servers. */
  dataDir: string
  /** The page paths to serve, each rendered as the app renders it for a guest. */
  pagePaths: string[]
  /**
   * A signed-in reader's pages: each path served under SIGNED_IN_PREFIX, rendered as the app
   * renders it for a request with this Cookie header.
   */
  signedIn?: { cookie: string; pagePaths: string[] }
  /** API addresses (query included) to answer with the real server's JSON; one per path. */
  apiPaths?: string[]
}

/** Where the baseline serves the signed-in reader's pages: `/signed-in/courses` for `/courses`. */
export const SIGNED_IN_PREFIX = '/signed-in'

export async function startBaseline(
  input: BaselineInput,
  host = '127.0.0.1',
): Promise<{ app: FastifyInstance; url: string }> {
  const { answers, pages } = await capture(input)
  const app = Fastify({ logger: false })
  for (const [pathname, body] of answers) app.get(pathname, async () => body)
  for (const { route, pathname, context } of pages) {
    const url = `http://${host}${pathname}`
    app.get(route, async (_request, reply) =>
      reply.type('text/html; charset=utf-8').send(renderPage(context, url)),
    )
  }
  await app.listen({ host, port: 0 })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return { app, url: `http://${host}:${port}` }
}

/** One page: the build's components from the captured context, and its data serialised. */
function renderPage(captured: EntryContext, url: string): string {
  // renderMeta is React Router's per-render bookkeeping; the handoff stream was the real
  // render's, already read: each render starts without either.
  const context: EntryContext = { ...captured, renderMeta: {}, serverHandoffStream: undefined }
  // A fresh nonce per page, as the app's Content-Security-Policy gives its scripts.
  const nonce = randomBytes(16).toString('base64url')
  const markup = renderToString(createElement(ServerRouter, { context, url, nonce }))
  const data = JSON.stringify(captured.staticHandlerContext.loaderData).replaceAll('<', '\\u003c')
  return `<!DOCTYPE html>${markup}<script nonce="${nonce}" type="application/json">${data}</script>`
}

/**
 * Runs the real app once per page in this process, as a guest (and as the signed-in reader),
 * and keeps what React Router passed the build's `handleRequest`: the matched route modules,
 * the loaders' data, the manifest.
 */
async function capture(input: BaselineInput) {
  const config = loadConfig(appEnvironment(input.dataDir, 0))
  const { build } = await appBuild(config)
  if (typeof build === 'function') throw new Error('the baseline needs a production build')
  const captured: EntryContext[] = []
  const handleRequest: ServerBuild['entry']['module']['default'] = (
    request,
    status,
    headers,
    context,
    loadContext,
  ) => {
    captured.push(context)
    return build.entry.module.default(request, status, headers, context, loadContext)
  }
  const capturing: ServerBuild = {
    ...build,
    entry: { module: { ...build.entry.module, default: handleRequest } },
  }
  const database = openDatabase(config.database)
  const app = await buildServer({ config, database, logger: false, build: capturing })
  const visits = [
    ...input.pagePaths.map((pathname) => ({ pathname, route: pathname, cookie: undefined })),
    ...(input.signedIn?.pagePaths ?? []).map((pathname) => ({
      pathname,
      route: `${SIGNED_IN_PREFIX}${pathname === '/' ? '' : pathname}`,
      cookie: input.signedIn?.cookie,
    })),
  ]
  try {
    const pages: { route: string; pathname: string; context: EntryContext }[] = []
    for (const { pathname, route, cookie } of visits) {
      captured.length = 0
      const headers = cookie === undefined ? {} : { cookie }
      const response = await app.inject({ method: 'GET', url: pathname, headers })
      const [context] = captured
      if (response.statusCode !== 200 || context === undefined) {
        throw new Error(`GET ${pathname} answered ${response.statusCode}; nothing to compare with`)
      }
      pages.push({ route, pathname, context })
    }
    const answers = new Map<string, unknown>()
    for (const address of input.apiPaths ?? ['/api/courses']) {
      const answer = await app.inject({ method: 'GET', url: address })
      if (answer.statusCode !== 200) throw new Error(`GET ${address}: ${answer.statusCode}`)
      answers.set(new URL(address, 'http://baseline').pathname, answer.json())
    }
    return { answers, pages }
  } finally {
    await app.close()
    await database.close()
  }
}

/**
 * A page's markup before its first script in the body (the head's theme script is markup like
 * any other), without the per-response CSP nonces.
 */
export function markupBeforeScripts(html: string): string {
  const end = html.indexOf('<script', Math.max(0, html.indexOf('<body')))
  return (end === -1 ? html : html.slice(0, end)).replaceAll(/ nonce="[^"]*"/g, '')
}
