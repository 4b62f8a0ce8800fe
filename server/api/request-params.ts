import type { FastifyRequest } from 'fastify'
import { z } from 'zod'

/** An id in an /api path (content ids, usernames): anything longer is not ours. */
export const pathId = z.string().min(1).max(64)

/** The request's path parameters, validated: a mismatch is a 400 with field errors. */
export function pathParams<T extends z.ZodType>(schema: T, request: FastifyRequest): z.output<T> {
  const parsed = schema.safeParse(request.params)
  if (!parsed.success) throw parsed.error
  return parsed.data
}
