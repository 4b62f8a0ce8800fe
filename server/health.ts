import type { FastifyInstance } from 'fastify'
import type { Database } from '#db/database.ts'

const READINESS_TIMEOUT_MS = 2_000

/** `/healthz`: the process is up. `/readyz`: it can also reach its database. */
export function registerHealth(app: FastifyInstance, database: Database): void {
  const noStore = 'no-store'
  app.get('/healthz', async (_request, reply) => {
    reply.header('cache-control', noStore)
    return { status: 'ok' }
  })
  app.get('/readyz', async (request, reply) => {
    reply.header('cache-control', noStore)
    try {
      await withTimeout(database.ping(), READINESS_TIMEOUT_MS)
      return { status: 'ready', database: database.kind }
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed')
      return reply.code(503).send({ status: 'unavailable', database: database.kind })
    }
  })
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}
