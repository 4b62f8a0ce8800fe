import { Readable } from 'node:stream'
import fastifyCompress from '@fastify/compress'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { createRequestHandler, type ServerBuild } from 'react-router'
import type { AppContext } from '#app/load-context.ts'
import { negotiateCoding, onTheFlyCompression } from './compression.ts'
import { newNonce, type PagePolicy, withNonce } from './content-security-policy.ts'
import type { PageCache } from './page-cache.ts'
import { sendWebResponse } from './web-response.ts'
import { isAnonymous } from './web-session/cookies.ts'
import type { RequestSessions } from './web-session/service.ts'

type BuildSource = ServerBuild | (() => Promise<ServerBuild>)

const PAGE_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'])

function methodNotAllowed(reply: FastifyReply) {
  return reply
    .code(405)
    .header('allow', [...PAGE_METHODS].join(', '))
    .type('text/plain; charset=utf-8')
    .send('405 Method Not Allowed: このメソッドには対応していません')
}

/**
 * Serves every path no other part of the process claimed through the React Router app:
 * pages, their `.data` requests and form actions.
 */
export function registerReactRouter(
  app: FastifyInstance,
  options: {
    build: BuildSource
    mode: string
    context: Omit<AppContext, 'auth'> & { auth: RequestSessions }
    pageCache: PageCache
    policy: PagePolicy
  },
): void {
  const handle = createRequestHandler(options.build, options.mode)
  // Every path is a page path, so what reaches "not found" is a method no route accepts.
  app.setNotFoundHandler((_request, reply) => methodNotAllowed(reply))

  app.register(async (pages) => {
    await pages.register(fastifyCompress, onTheFlyCompression)
    // Actions read the body themselves (forms, JSON, files): hand them the raw stream.
    pages.removeAllContentTypeParsers()
    pages.addContentTypeParser('*', (_request, payload, done) => done(null, payload))

    pages.all('/*', async (request, reply) => {
      if (!PAGE_METHODS.has(request.method)) return methodNotAllowed(reply)
      const nonce = newNonce()
      // Development's policy allows inline scripts (Vite's); a nonce there only makes React warn
      // that the browser hid it from the `<link>` it hydrates.
      const context: AppContext = {
        ...options.context,
        auth: options.context.auth.forRequest(),
        clientAddress: request.ip,
        ...(options.mode !== 'development' && { cspNonce: nonce }),
      }
      const render = async (path?: string) =>
        withNonce(await handle(toWebRequest(request, reply, path), context), options.policy, nonce)
      const cacheable =
        (request.method === 'GET' || request.method === 'HEAD') && isAnonymous(request.headers)
      if (!cacheable) return sendWebResponse(reply, await render())
      // Guests' pages render from the address without tracking parameters, so that
      // `/?utm_source=…` shares the cached `/` instead of rendering anew.
      const path = withoutTrackingParameters(request.url)
      // The scheme is part of the address: a page rendered for https (Secure cookies, the
      // TLS listener's own links) is not the http one.
      const key = `${request.method} ${request.protocol} ${path}`
      const page = await options.pageCache.get(key, () => render(path))
      // A cached page keeps the nonce of its render, in its policy and its bytes, so that it is
      // compressed once and replayed as it is (decision 029).
      return sendWebResponse(
        reply,
        await page.toResponse(negotiateCoding(request.headers['accept-encoding'])),
      )
    })
  })
}

const TRACKING_PARAMETER = /^(utm_[a-z_]+|fbclid|gclid|yclid|msclkid|mc_eid)$/i

/** The request path without marketing parameters, which no page reads. */
export function withoutTrackingParameters(path: string): string {
  const query = path.indexOf('?')
  if (query < 0) return path
  const parameters = new URLSearchParams(path.slice(query + 1))
  const names = [...new Set(parameters.keys())]
  const tracking = names.filter((name) => TRACKING_PARAMETER.test(name))
  if (tracking.length === 0) return path
  for (const name of tracking) parameters.delete(name)
  const rest = parameters.toString()
  return rest ? `${path.slice(0, query)}?${rest}` : path.slice(0, query)
}

function toWebRequest(request: FastifyRequest, reply: FastifyReply, path = request.url): Request {
  const url = `${request.protocol}://${request.host}${path}`
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue
    if (Array.isArray(value)) for (const item of value) headers.append(name, item)
    else headers.set(name, value)
  }
  const controller = new AbortController()
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort()
  })
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD'
  return new Request(url, {
    method: request.method,
    headers,
    signal: controller.signal,
    body: hasBody ? (Readable.toWeb(request.body as Readable) as ReadableStream) : null,
    // Required by fetch for streamed request bodies.
    ...(hasBody ? { duplex: 'half' } : {}),
  } as RequestInit)
}
