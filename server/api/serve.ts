import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify'
import { serializerCompiler } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Actor } from '#features/actor.ts'
import {
  apiErrorBody,
  type RouteContract,
  type RouteInput,
  type RouteResult,
} from '#features/api/contract.ts'
import { ContentError } from '#features/content-error.ts'
import { negotiateCoding } from '#server/compression.ts'
import type { PageCache } from '#server/page-cache.ts'
import { sendWebResponse } from '#server/web-response.ts'
import { isAnonymous } from '#server/web-session/cookies.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Where guests' answers of routes with `guestCacheSeconds` are kept (the page cache). */
    guestAnswers?: PageCache
    /** Who is signed in behind a request (a session or a bearer token); none: nobody. */
    actorOf?: (request: FastifyRequest) => Promise<Actor | undefined>
  }
}

/**
 * What a route's handler receives: the validated input and who asks. A contract with
 * `signIn: true` is refused with 401 before its handler runs, so its actor cannot be missing.
 */
export type ServedInput<C extends RouteContract> = RouteInput<C> & {
  actor: C['signIn'] extends true ? Actor : Actor | undefined
}

/**
 * Fastify validates /api input with the contracts' zod schemas. A mismatch is thrown as the
 * ZodError itself, so the error handler answers with the API's field errors (ApiError.validation)
 * exactly as when a feature parses.
 */
export function validateWithZod(api: FastifyInstance): void {
  api.addHook('preValidation', async (request) => {
    sentInput.set(request, { params: request.params, query: request.query, body: request.body })
  })
  api.setValidatorCompiler<z.ZodType>(({ schema }) => (data) => {
    const result = schema.safeParse(data)
    return result.success ? { value: result.data } : { error: result.error }
  })
  // Answers are encoded with the response schema: a field a feature does not declare never
  // leaves the server, and an answer that does not match is a 500, not a silent drift.
  api.setSerializerCompiler(serializerCompiler)
}

/** Each request's input as it arrived, before validation replaced it with the schemas' output. */
const sentInput = new WeakMap<FastifyRequest, { params: unknown; query: unknown; body: unknown }>()

/** Each request's actor, found once before validation. */
const actors = new WeakMap<FastifyRequest, Actor | undefined>()

/** The route's schemas as Fastify (and @fastify/swagger) read them. */
function fastifySchema(contract: RouteContract): FastifySchema {
  return {
    summary: contract.summary,
    ...(contract.signIn && { security: [{ session: [] }, { bearer: [] }] }),
    ...(contract.params && { params: contract.params }),
    ...(contract.query && { querystring: contract.query }),
    ...(contract.body && { body: contract.body }),
    response: {
      // A 204 has no body: `null` is what @fastify/swagger documents as an answer without content.
      [contract.status]: contract.status === 204 ? z.null() : contract.response,
      '4xx': apiErrorBody,
    },
  }
}

/**
 * Registers one /api route from its contract. The handler gets the validated input and must
 * return what the response schema describes: a feature whose result drifts from the contract
 * fails `tsc` here.
 */
export function serve<C extends RouteContract>(
  api: FastifyInstance,
  contract: C,
  handler: (input: ServedInput<C>, request: FastifyRequest) => Promise<RouteResult<C>>,
): void {
  api.route({
    method: contract.method,
    url: contract.path,
    ...(contract.bodyLimit && { bodyLimit: contract.bodyLimit }),
    schema: fastifySchema(contract),
    // Before validation: a guest learns that the route needs signing in, not what its input lacks.
    preValidation: async (request) => {
      const actor = await api.actorOf?.(request)
      if (contract.signIn && !actor) throw ContentError.signInRequired()
      actors.set(request, actor)
    },
    handler: async (request, reply) => {
      // The validator compiler replaced params, query and body with the schemas' output.
      const input = {
        params: request.params,
        query: request.query,
        body: request.body,
        sent: sentInput.get(request),
        actor: actors.get(request),
      } as ServedInput<C>
      const seconds = contract.guestCacheSeconds
      if (seconds && api.guestAnswers && request.method === 'GET' && isAnonymous(request.headers)) {
        return answerGuest(api.guestAnswers, seconds, request, reply, () => handler(input, request))
      }
      const result = await handler(input, request)
      reply.code(contract.status)
      return contract.status === 204 ? reply.send() : result
    },
  })
}

/**
 * A guest's answer to a public read, from the cache while it is fresh (keyed by the address,
 * query included), else computed, encoded by the route's serializer and kept `seconds`.
 */
async function answerGuest(
  cache: PageCache,
  seconds: number,
  request: FastifyRequest,
  reply: FastifyReply,
  compute: () => Promise<unknown>,
): Promise<FastifyReply> {
  const answer = await cache.get(`API ${request.url}`, async () => {
    const json = String(reply.serialize(await compute()))
    return new Response(json, {
      status: 200,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': `public, max-age=0, s-maxage=${seconds}`,
      },
    })
  })
  return sendWebResponse(
    reply,
    await answer.toResponse(negotiateCoding(request.headers['accept-encoding'])),
  )
}
