import WebSocket, { type ClientOptions } from 'ws'

/** A frame the server sent on /realtime. */
export type Frame = { type: string; data?: unknown }

export type TestSocket = {
  socket: WebSocket
  /** The next frame of `type` (skipping others), or a failure after `timeoutMs`. */
  next(type: string, timeoutMs?: number): Promise<Frame>
  /** Every frame so far, in order. */
  frames: Frame[]
  closed: Promise<{ code: number; reason: string }>
  close(): Promise<void>
}

export const realtimeUrl = (serverUrl: string) => `${serverUrl.replace(/^http/, 'ws')}/realtime`

/** A browser's handshake headers from a page of `serverUrl`, with its session cookie. */
export const pageHeaders = (serverUrl: string, cookie: string) => ({
  cookie,
  origin: new URL(serverUrl).origin,
})

/** Opens /realtime and waits for the server's `ready` frame. */
export async function openSocket(
  serverUrl: string,
  headers: Record<string, string>,
  options: ClientOptions = {},
): Promise<TestSocket> {
  const socket = new WebSocket(realtimeUrl(serverUrl), { headers, ...options })
  const frames: Frame[] = []
  const waiting: { type: string; resolve(frame: Frame): void }[] = []
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  )
  socket.on('message', (data, isBinary) => {
    // Server frames are JSON text: a page's script would get a binary one as a Blob.
    const frame = isBinary ? { type: '(binary frame)' } : (JSON.parse(String(data)) as Frame)
    frames.push(frame)
    for (const waiter of [...waiting]) {
      if (waiter.type === frame.type) {
        waiting.splice(waiting.indexOf(waiter), 1)
        waiter.resolve(frame)
      }
    }
  })
  const next = (type: string, timeoutMs = 2_000) =>
    new Promise<Frame>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${type} frame within ${timeoutMs} ms`)),
        timeoutMs,
      )
      waiting.push({
        type,
        resolve: (frame) => {
          clearTimeout(timer)
          resolve(frame)
        },
      })
    })
  const ready = next('ready', 5_000)
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve())
    socket.once('error', reject)
  })
  await ready
  return {
    socket,
    next,
    frames,
    closed,
    async close() {
      if (socket.readyState !== WebSocket.CLOSED) socket.close()
      await closed
    },
  }
}

/** The HTTP status a refused handshake answered with. */
export function refusedHandshake(
  serverUrl: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(realtimeUrl(serverUrl), { headers })
    socket.on('open', () => {
      socket.close()
      reject(new Error('the handshake was accepted'))
    })
    socket.on('unexpected-response', (_request, response) => {
      let body = ''
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString()
      })
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
    })
    socket.on('error', () => {})
  })
}

/**
 * A page's handshake the server upgraded only to close at once: the close code and reason, and
 * whether any frame came before it (none should).
 */
export function closedHandshake(
  serverUrl: string,
  headers: Record<string, string>,
): Promise<{ code: number; reason: string; frames: number }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(realtimeUrl(serverUrl), { headers })
    let frames = 0
    socket.on('message', () => {
      frames += 1
    })
    socket.on('unexpected-response', (_request, response) =>
      reject(new Error(`the handshake was refused over HTTP (${response.statusCode})`)),
    )
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString(), frames }))
    socket.on('error', () => {})
  })
}

/** The user id (`sub`) in an access token: whom the server's events for this user address. */
export function subOf(accessToken: string): string {
  const payload = accessToken.split('.')[1] ?? ''
  return (JSON.parse(Buffer.from(payload, 'base64url').toString()) as { sub: string }).sub
}
