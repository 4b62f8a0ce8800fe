import { connect, createServer, type Server, type Socket } from 'node:net'

/**
 * A TCP proxy a test controls, in front of a shared service (the machine's Redis): `stop()`
 * makes the service unreachable for whoever connects through it, as a crashed Redis would be,
 * without touching the service others use; `start()` brings it back on the same port.
 */
export type TcpProxy = { port: number; stop(): Promise<void>; start(): Promise<void> }

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>()
  let server: Server | undefined
  let port = 0
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const proxy = createServer((client) => {
        const upstream = connect(target)
        for (const socket of [client, upstream]) {
          sockets.add(socket)
          socket.on('close', () => sockets.delete(socket))
          socket.on('error', () => {
            client.destroy()
            upstream.destroy()
          })
        }
        client.pipe(upstream).pipe(client)
      })
      proxy.once('error', reject)
      proxy.listen({ host: '127.0.0.1', port }, () => {
        const address = proxy.address()
        port = typeof address === 'object' && address ? address.port : port
        server = proxy
        resolve()
      })
    })
  await listen()
  return {
    get port() {
      return port
    },
    async stop() {
      const closing = server
      server = undefined
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => (closing ? closing.close(() => resolve()) : resolve()))
    },
    start: listen,
  }
}
