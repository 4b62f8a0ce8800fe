import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { request as httpsRequest } from 'node:https'
import net from 'node:net'

/** Sends raw bytes (for requests fetch refuses to make) and resolves with the whole answer. */
export function rawRequest(url: string, payload: string): Promise<string> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) })
    let answer = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk) => {
      answer += chunk
    })
    socket.on('end', () => resolve(answer))
    socket.on('error', reject)
    socket.write(payload)
    socket.setTimeout(5_000, () => socket.destroy(new Error('no answer within 5 s')))
  })
}

export function statusOf(rawAnswer: string): number {
  return Number(/^HTTP\/1\.[01] (\d{3})/.exec(rawAnswer)?.[1])
}

/** Calls /api of a test server as a browser would, with a session cookie or as a guest. */
export async function callApi(
  serverUrl: string,
  method: string,
  path: string,
  cookie?: string,
  body?: unknown,
) {
  const response = await fetch(`${serverUrl}/api${path}`, {
    method,
    headers: {
      ...(cookie && { cookie }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  return {
    status: response.status,
    body: text ? JSON.parse(text) : undefined,
    headers: response.headers,
  }
}

/** Fetches a page of a test server without following redirects. */
export async function fetchPage(serverUrl: string, path: string, cookie?: string) {
  const response = await fetch(`${serverUrl}${path}`, {
    headers: cookie ? { cookie } : {},
    redirect: 'manual',
  })
  return { status: response.status, html: await response.text(), response }
}

/**
 * A GET through node:http(s), for what fetch will not do: a chosen Host header, or trusting
 * the TLS listener's self-signed certificate (`ca`, issued for localhost).
 */
export function nodeGet(
  url: string,
  options: { headers?: Record<string, string>; ca?: string } = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  const target = new URL(url)
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const outgoing = request(
      target,
      { headers: options.headers, ...(options.ca && { ca: options.ca, servername: 'localhost' }) },
      (response) => {
        let body = ''
        response.setEncoding('utf8')
        response.on('data', (chunk) => {
          body += chunk
        })
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        )
      },
    )
    outgoing.on('error', reject)
    outgoing.end()
  })
}

/** An answer as sent: status, headers and the body's bytes, still content-encoded. */
export type RawAnswer = {
  status: number
  headers: IncomingHttpHeaders
  body: Buffer
}

/** GET with node:http, not fetch: fetch decodes bodies by itself and would hide what was sent. */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
        }),
      )
      response.on('error', reject)
    })
    request.on('error', reject)
    request.end()
  })
}
