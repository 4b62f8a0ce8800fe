import type { FastifyRequest } from 'fastify'
import type { z } from 'zod'

/** One operation of the user pool: its input schema and what it does (see aws-json-protocol). */
export type Operation<Schema extends z.ZodType> = {
  input: Schema
  handle(input: z.infer<Schema>, request: FastifyRequest): Promise<object>
}

export function operation<Schema extends z.ZodType>(
  input: Schema,
  handle: (input: z.infer<Schema>, request: FastifyRequest) => Promise<object>,
): Operation<Schema> {
  return { input, handle }
}
