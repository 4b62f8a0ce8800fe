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

/** Calls the server's /api as a browser would, signed in when given a Cookie header. */
export async function apiCall(
  baseUrl: string,
  method: string,
  path: string,
  cookie?: string,
  body?: unknown,
) {
  const response = await fetch(`${baseUrl}/api${path}`, {
    method,
    headers: {
      ...(cookie && { cookie }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : undefined }
}

/** Fetches a page's HTML without following redirects, signed in when given a Cookie header. */
export async function fetchPage(baseUrl: string, path: string, cookie?: string) {
  const response = await fetch(`${baseUrl}${path}`, {
    headers: cookie ? { cookie } : {},
    redirect: 'manual',
  })
  return { status: response.status, html: await response.text(), response }
}
