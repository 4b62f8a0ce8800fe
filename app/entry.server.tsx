import { Writable } from 'node:stream'
import { renderToPipeableStream } from 'react-dom/server'
import {
  type AppLoadContext,
  type EntryContext,
  type HandleDataRequestFunction,
  type HandleErrorFunction,
  isRouteErrorResponse,
  ServerRouter,
} from 'react-router'

export const streamTimeout = 5_000

/**
 * Renders a page to the end and answers it as one body with its length, for browsers and
 * crawlers alike: every part comes from the local database, and one buffer costs far less to
 * send than React's chunks through three streams (decision 043). Suspended parts are in the same
 * body; a render still waiting at `streamTimeout` is aborted.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  keepPersonalPagesPrivate(loadContext, request, responseHeaders)
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders })
  }
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false
    let timeout: NodeJS.Timeout | undefined = setTimeout(() => abort(), streamTimeout + 1000)
    const nonce = loadContext.cspNonce
    const { pipe, abort } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />,
      {
        nonce,
        onShellReady() {
          shellRendered = true
        },
        onAllReady() {
          const chunks: Buffer[] = []
          const document = new Writable({
            write(chunk: Buffer, _encoding, callback) {
              chunks.push(chunk)
              callback()
            },
            final(callback) {
              clearTimeout(timeout)
              timeout = undefined
              const body = Buffer.concat(chunks)
              responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
              responseHeaders.set('Content-Length', String(body.byteLength))
              resolve(new Response(body, { headers: responseHeaders, status: responseStatusCode }))
              callback()
            },
          })
          pipe(document)
        },
        onShellError(error: unknown) {
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          // Errors before the shell is ready reject above and are logged by handleError.
          if (shellRendered)
            loadContext.log.error({ err: error, url: request.url }, 'page rendering failed')
        },
      },
    )
  })
}

/**
 * A page rendered for someone with a session may name them (the header, their settings):
 * no shared cache may keep it, whatever Cache-Control the route asked for guests.
 */
function keepPersonalPagesPrivate(context: AppLoadContext, request: Request, headers: Headers) {
  if (!context.auth.isPersonal(request)) return
  try {
    headers.set('Cache-Control', 'private, no-store')
  } catch {
    // Immutable headers (a Response.redirect) carry no cacheable page.
  }
}

export const handleDataRequest: HandleDataRequestFunction = (response, { request, context }) => {
  keepPersonalPagesPrivate(context, request, response.headers)
  return response
}

/** Logs what went wrong on the server, but not the 4xx answers pages give on purpose. */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return
  if (isRouteErrorResponse(error) && error.status < 500) return
  if (error instanceof Response && error.status < 500) return
  const log = (context as AppLoadContext | undefined)?.log
  if (log) log.error({ err: error, url: request.url }, 'request failed')
  else console.error(error)
}
