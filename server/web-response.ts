import { Readable } from 'node:stream'
import type { FastifyReply } from 'fastify'

/** Sends a web Response (a rendered page, a cached answer) through Fastify's reply. */
export async function sendWebResponse(
  reply: FastifyReply,
  response: Response,
): Promise<FastifyReply> {
  reply.code(response.status)
  for (const [name, value] of response.headers) {
    if (name !== 'set-cookie') reply.header(name, value)
  }
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) reply.header('set-cookie', cookies)
  if (!response.body) return reply.send()
  // A body of known length (a rendered page) is sent as one buffer: cheaper than piping a web
  // stream chunk by chunk into the socket.
  if (response.headers.has('content-length'))
    return reply.send(Buffer.from(await response.arrayBuffer()))
  return reply.send(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream))
}
