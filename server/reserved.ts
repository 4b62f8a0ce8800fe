import type { FastifyInstance } from 'fastify'

/**
 * Prefixes that belong to the AWS-compatible services and realtime, claimed now so that no
 * page or username can take them. Until a service is mounted it answers 501 (`/s3` is mounted
 * by server/storage).
 */
export const RESERVED_PREFIXES = ['/realtime'] as const

export function reservePrefix(app: FastifyInstance, prefix: string): void {
  app.register(
    async (service) => {
      service.all('/', notYetAvailable)
      service.all('/*', notYetAvailable)
    },
    { prefix },
  )

  async function notYetAvailable(_request: unknown, reply: import('fastify').FastifyReply) {
    return reply.code(501).send({
      code: 'NotImplemented',
      message: `${prefix} is reserved for a service that is not enabled yet`,
    })
  }
}
