import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { Actor } from '#features/actor.ts'
import { type StudyListQuery, studyListQuery } from '#features/studies/study-lists.server.ts'
import { ApiError } from './api-error.ts'
import { pathId, pathParams } from './request-params.ts'

type ActorOf = (request: FastifyRequest) => Promise<Actor | undefined>

/** One kind of authored content as /api serves it, by its feature functions. */
export type EditableRoutes = {
  /** The kind's collection under /api, e.g. `/studies`; its pages use the same segment. */
  collection: string
  /** The name of the id in paths, e.g. `studyId`. */
  idName: string
  list(query: StudyListQuery, username?: string): Promise<unknown>
  read(address: { username: string; id: string }, viewer: Actor | undefined): Promise<unknown>
  create(actor: Actor | undefined, body: unknown): Promise<unknown>
  readDraft(actor: Actor | undefined, id: string): Promise<unknown>
  update(actor: Actor | undefined, id: string, body: unknown): Promise<unknown>
  publish(actor: Actor | undefined, id: string, body: unknown): Promise<unknown>
  unpublish(actor: Actor | undefined, id: string, body: unknown): Promise<unknown>
  remove(actor: Actor | undefined, id: string): Promise<void>
}

const authorParams = z.object({ username: pathId })

/** A list's `?cursor=&limit=`, validated: a mismatch is a 400 with field errors. */
export function listQuery(request: FastifyRequest): StudyListQuery {
  const query = studyListQuery.safeParse(request.query)
  if (!query.success) throw ApiError.validation(query.error)
  return query.data
}

/**
 * The routes every authored kind has: its lists and pages' reads at the pages' addresses, and
 * the editor's writes addressed by id. Every write goes through the feature functions, which
 * check ownership and revisions.
 */
export function registerEditableRoutes(
  api: FastifyInstance,
  actorOf: ActorOf,
  kind: EditableRoutes,
): void {
  const { collection, idName } = kind
  const idParams = z.object({ [idName]: pathId })
  const idOf = (request: FastifyRequest) => String(pathParams(idParams, request)[idName])
  const item = `${collection}/:${idName}`

  api.get(collection, async (request) => kind.list(listQuery(request)))
  api.get(`/users/:username${collection}`, async (request) => {
    const { username } = pathParams(authorParams, request)
    return kind.list(listQuery(request), username)
  })
  api.get(`/users/:username${item}`, async (request) => {
    const { username } = pathParams(authorParams, request)
    return kind.read({ username, id: idOf(request) }, await actorOf(request))
  })

  api.post(collection, async (request, reply) => {
    return reply.code(201).send(await kind.create(await actorOf(request), request.body))
  })
  api.get(`${item}/draft`, async (request) => kind.readDraft(await actorOf(request), idOf(request)))
  api.put(item, async (request) => kind.update(await actorOf(request), idOf(request), request.body))
  api.post(`${item}/publish`, async (request) =>
    kind.publish(await actorOf(request), idOf(request), request.body),
  )
  api.post(`${item}/unpublish`, async (request) =>
    kind.unpublish(await actorOf(request), idOf(request), request.body),
  )
  api.delete(item, async (request, reply) => {
    await kind.remove(await actorOf(request), idOf(request))
    return reply.code(204).send()
  })
}
