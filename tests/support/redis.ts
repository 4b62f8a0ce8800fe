import { connect } from 'node:net'

/** The Redis the tests use (REDIS_URL's scale-out path); Redis runs on every machine here. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

/** Is anything listening at the Redis URL? Tests that need it skip, saying so, when not. */
export async function redisReachable(url = TEST_REDIS_URL, who = 'a test'): Promise<boolean> {
  const { hostname, port } = new URL(url)
  const reachable = await new Promise<boolean>((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 6379) })
    socket.setTimeout(1_000, () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
  if (!reachable)
    console.warn(`${who}: Redis is unreachable at ${url}: its Redis tests are skipped`)
  return reachable
}
