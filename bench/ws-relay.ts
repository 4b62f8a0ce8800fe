/**
 * The realtime benchmark's baseline: a bare `ws` server with nothing of the site (no session,
 * no Origin check, no schema, no database). A client names itself in the URL (`/?id=name`);
 * a text frame `{"to":"name",...}` is sent as it is to that client's socket, on this server or,
 * with a Redis URL, on any relay sharing the channel. A frame addressed to its sender is an echo.
 * `publish` sends an event from the server side, as the app's `realtime.publish` does.
 */
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { type WebSocket, WebSocketServer } from 'ws'

export async function startWsRelay(redisUrl?: string, channel = 'bench:ws-relay') {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false })
  const listening = new Promise<void>((resolve) => server.once('listening', resolve))
  const clients = new Map<string, WebSocket>()
  const origin = randomUUID()
  const publisher = redisUrl ? new Redis(redisUrl) : undefined
  const subscriber = redisUrl ? new Redis(redisUrl) : undefined
  const deliver = (to: string, frame: string) => clients.get(to)?.send(frame)
  /** To a client here, or through Redis to the relay that has it. */
  const relay = (to: string, frame: string) => {
    if (clients.has(to)) deliver(to, frame)
    else publisher?.publish(channel, JSON.stringify({ from: origin, to, frame }))
  }
  if (subscriber) {
    await subscriber.subscribe(channel)
    subscriber.on('message', (_channel: string, message: string) => {
      const { from, to, frame } = JSON.parse(message) as { from: string; to: string; frame: string }
      if (from !== origin) deliver(to, frame)
    })
  }
  server.on('connection', (socket, request) => {
    const id = new URL(request.url ?? '/', 'http://relay').searchParams.get('id') ?? randomUUID()
    clients.set(id, socket)
    socket.on('close', () => clients.delete(id))
    socket.on('message', (data) => {
      const frame = String(data)
      relay((JSON.parse(frame) as { to: string }).to, frame)
    })
  })
  await listening
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    url: `ws://127.0.0.1:${port}`,
    /** What the app's `realtime.publish` is measured against: the same frame, sent as it is. */
    publish(to: readonly string[], event: { type: string; data: unknown }) {
      const frame = JSON.stringify(event)
      for (const id of to) relay(id, frame)
    },
    async close() {
      for (const socket of clients.values()) socket.terminate()
      publisher?.disconnect()
      subscriber?.disconnect()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
