import { once } from 'node:events'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A local stand-in for the few Stripe API calls the Stripe gateway makes (the
 * outgoing API calls are the only part checked against a local stand-in): it records every
 * request as Stripe would receive it (method, path, headers, the form-encoded body decoded)
 * and answers Checkout Sessions, portal sessions and subscriptions the test put in `subscriptions`.
 * The `stripe` client is pointed at it with its `host`, `port` and `protocol` options. A session's
 * URL opens a bare page linking back to the site (success, cancel or return URL), as Stripe's own
 * pages send the browser back, so a browser test can go there and come back.
 */

export type RecordedRequest = {
  method: string
  path: string
  query: URLSearchParams
  headers: IncomingHttpHeaders
  /** The form-encoded body, decoded: `line_items[0][price]` → its value. */
  form: Record<string, string>
}

export type StripeStandIn = {
  api: { host: string; port: number; protocol: 'http' }
  /** The API's address, for STRIPE_API_URL. */
  url: string
  requests: RecordedRequest[]
  /** What GET /v1/subscriptions/:id answers, by id. */
  subscriptions: Map<string, object>
  close(): Promise<void>
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const requests: RecordedRequest[] = []
  const subscriptions = new Map<string, object>()
  let sessions = 0
  const pages = new Map<string, { title: string; links: [string, string][] }>()
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://stand-in')
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')))
      requests.push({
        method: request.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: request.headers,
        form,
      })
      const send = (status: number, body: object) => {
        response.writeHead(status, {
          'content-type': 'application/json',
          'request-id': 'req_standin',
        })
        response.end(JSON.stringify(body))
      }
      const origin = `http://${request.headers.host}`
      if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        sessions += 1
        const id = `cs_test_standin${sessions}`
        pages.set(`/checkout/${id}`, {
          title: 'Checkout (stand-in)',
          links: [
            ['支払いを完了する', form.success_url ?? '/'],
            ['戻る', form.cancel_url ?? '/'],
          ],
        })
        return send(200, {
          id,
          object: 'checkout.session',
          mode: form.mode,
          client_reference_id: form.client_reference_id ?? null,
          url: `${origin}/checkout/${id}`,
        })
      }
      if (request.method === 'POST' && url.pathname === '/v1/billing_portal/sessions') {
        sessions += 1
        pages.set(`/portal/bps_standin${sessions}`, {
          title: 'Customer Portal (stand-in)',
          links: [['サイトに戻る', form.return_url ?? '/']],
        })
        return send(200, {
          id: `bps_standin${sessions}`,
          object: 'billing_portal.session',
          customer: form.customer,
          return_url: form.return_url,
          url: `${origin}/portal/bps_standin${sessions}`,
        })
      }
      const hosted = pages.get(url.pathname)
      if (request.method === 'GET' && hosted) {
        const links = hosted.links.map(([text, href]) => `<li><a href="${href}">${text}</a></li>`)
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        response.end(
          `<!doctype html><html lang="ja"><head><title>${hosted.title}</title><link rel="icon" href="data:,"></head><body><main><h1>${hosted.title}</h1><ul>${links.join('')}</ul></main></body></html>`,
        )
        return
      }
      const subscription = /^\/v1\/subscriptions\/([\w-]+)$/.exec(url.pathname)
      if (request.method === 'GET' && subscription) {
        const found = subscriptions.get(subscription[1] ?? '')
        if (found) return send(200, found)
      }
      send(404, {
        error: { type: 'invalid_request_error', message: `No such route: ${url.pathname}` },
      })
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    api: { host: '127.0.0.1', port, protocol: 'http' },
    url: `http://127.0.0.1:${port}`,
    requests,
    subscriptions,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}
