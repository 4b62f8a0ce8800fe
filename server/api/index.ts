import type { FastifyError, FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '../../db/schema.ts'
import { ApiError } from './api-error.ts'
import { registerCourseRoutes } from './courses.ts'

/** The product API under /api: thin adapters from HTTP to feature functions. */
export async function apiPlugin(api: FastifyInstance, options: { db: Kysely<DB> }): Promise<void> {
  api.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiError) return reply.code(error.status).send(error.toJSON())
    // Fastify's own 4xx errors (bad JSON, body too large, unsupported media type…).
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      const apiError = new ApiError(error.statusCode, error.code ?? 'BAD_REQUEST', error.message)
      return reply.code(apiError.status).send(apiError.toJSON())
    }
    request.log.error({ err: error }, 'api request failed')
    const internal = new ApiError(
      500,
      'INTERNAL',
      'サーバーでエラーが発生しました。時間をおいてもう一度お試しください',
    )
    return reply.code(500).send(internal.toJSON())
  })
  registerCourseRoutes(api, options.db)
  // Claims the rest of /api, so that no unknown API path falls through to the page router.
  api.all('/*', async () => {
    throw ApiError.notFound('この API は存在しません')
  })
}
