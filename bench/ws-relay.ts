/**
 * The realtime benchmark's baseline: a bare `ws` server with nothing of the site (no session,
 * no Origin check, no schema, no query builder). A client names itself in the URL (`/?id=name`).
 * - `publish` sends an event from the server side, as the app's `realtime.publish` does: one
 *   JSON.stringify, then the frame to that client's socket, on this relay or, with a Redis URL,
 *   on any relay sharing the channel (an envelope as the app's fan-out sends).
 * - `POST /messages` `{"from","to","body"}` stores the message the way the app's database does
 *   (SQLite: node:sqlite, WAL, synchronous=NORMAL; or PostgreSQL through a `pg` pool of 10, as
 *   db/database.ts), in its own transaction, answers 201 once committed and sends
 *   `message.created` with the stored row to the recipient: the least a store-then-deliver
 *   message needs, to set beside a direct message through /api.
 */
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { Redis } from 'ioredis'
import pg from 'pg'
import { type WebSocket, WebSocketServer } from 'ws'

export type WsRelayOptions = {
  redisUrl?: string
  channel?: string
  /** Where the messages' SQLite file lives; relays joined through Redis share it, as the apps do. */
  dataDir: string
  /** A PostgreSQL database to store them in instead, as apps with DATABASE_URL do. */
  databaseUrl?: string
}

type Message = { id: string; from: string; to: string; body: string; createdAt: number }

const CREATE_TABLE =
  'CREATE TABLE IF NOT EXISTS messages (id TEXT PRIMARY KEY, sender TEXT NOT NULL, ' +
  'recipient TEXT NOT NULL, body TEXT NOT NULL, created_at BIGINT NOT NULL)'

/** Stores one message in its own transaction: SQLite (synchronous) or PostgreSQL. */
async function messageStore(dataDir: string, databaseUrl: string | undefined) {
  if (databaseUrl) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 })
    await pool.query(CREATE_TABLE)
    return {
      async store(message: Message) {
        const client = await pool.connect()
        try {
          await client.query('BEGIN')
          await client.query(
            'INSERT INTO messages (id, sender, recipient, body, created_at) VALUES ($1, $2, $3, $4, $5)',
            [message.id, message.from, message.to, message.body, message.createdAt],
          )
          await client.query('COMMIT')
        } catch (error) {
          await client.query('ROLLBACK')
          throw error
        } finally {
          client.release()
        }
      },
      close: () => pool.end(),
    }
  }
  const database = new DatabaseSync(path.join(dataDir, 'ws-relay.sqlite'), { timeout: 5_000 })
  database.exec('PRAGMA journal_mode = WAL')
  database.exec('PRAGMA synchronous = NORMAL')
  database.exec(CREATE_TABLE)
  const insert = database.prepare(
    'INSERT INTO messages (id, sender, recipient, body, created_at) VALUES (?, ?, ?, ?, ?)',
  )
  return {
    async store(message: Message) {
      database.exec('BEGIN IMMEDIATE')
      try {
        insert.run(message.id, message.from, message.to, message.body, message.createdAt)
        database.exec('COMMIT')
      } catch (error) {
        database.exec('ROLLBACK')
        throw error
      }
    },
    close: async () => database.close(),
  }
}

export async function startWsRelay({
  redisUrl,
  channel = 'bench:ws-relay',
  dataDir,
  databaseUrl,
}: WsRelayOptions) {
  const messages = await messageStore(dataDir, databaseUrl)
  const http = createServer((request, response) => {
    // A failure is the bench's to see (a non-2xx answer), not a crashed baseline.
    answer(request, response).catch((error: unknown) => {
      console.error('ws-relay: POST /messages failed', error)
      response.writeHead(500).end()
    })
  })
  const server = new WebSocketServer({ server: http, perMessageDeflate: false })
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
  })

  async function answer(request: IncomingMessage, response: ServerResponse) {
    if (request.method !== 'POST' || request.url !== '/messages') {
      response.writeHead(404).end()
      return
    }
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const { from, to, body } = JSON.parse(Buffer.concat(chunks).toString()) as {
      from: string
      to: string
      body: string
    }
    const message: Message = { id: randomUUID(), from, to, body, createdAt: Date.now() }
    await messages.store(message)
    relay(to, JSON.stringify({ type: 'message.created', data: message }))
    response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(message))
  }

  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  const address = http.address()
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
      await new Promise((resolve) => http.close(resolve))
      await messages.close()
    },
  }
}
