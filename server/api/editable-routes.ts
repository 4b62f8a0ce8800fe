import type { FastifyInstance } from 'fastify'
import type { z } from 'zod'
import type { Actor } from '#features/actor.ts'
import type { RouteContract, RouteInput, RouteResult } from '#features/api/contract.ts'
import type { EditableRouteSet } from '#features/api/editable.ts'
import type { PageQuery } from '#features/pagination.ts'
import { serve } from './serve.ts'

type Routes = EditableRouteSet
type In<C extends RouteContract> = RouteInput<C>['sent']['body']

/** One kind of authored content as /api serves it, by its feature functions. */
export type EditableKind<R extends Routes> = {
  /** The kind's list, or one author's: both routes answer the same page. */
  list(
    query: PageQuery,
    username?: string,
  ): Promise<RouteResult<R['list']> & RouteResult<R['listByAuthor']>>
  read(
    address: { username: string; id: string },
    viewer: Actor | undefined,
  ): Promise<RouteResult<R['read']>>
  create(actor: Actor | undefined, body: In<R['create']>): Promise<RouteResult<R['create']>>
  readDraft(actor: Actor | undefined, id: string): Promise<RouteResult<R['draft']>>
  update(
    actor: Actor | undefined,
    id: string,
    body: In<R['update']>,
  ): Promise<RouteResult<R['update']>>
  publish(
    actor: Actor | undefined,
    id: string,
    body: In<R['publish']>,
  ): Promise<RouteResult<R['publish']>>
  unpublish(
    actor: Actor | undefined,
    id: string,
    body: In<R['unpublish']>,
  ): Promise<RouteResult<R['unpublish']>>
  publishRevision(
    actor: Actor | undefined,
    id: string,
    body: In<R['publishRevision']>,
  ): Promise<RouteResult<R['publishRevision']>>
  discardRevision(
    actor: Actor | undefined,
    id: string,
    body: In<R['discardRevision']>,
  ): Promise<RouteResult<R['discardRevision']>>
  remove(actor: Actor | undefined, id: string): Promise<RouteResult<R['remove']>>
}

/**
 * The routes every authored kind has (features/api/editable.ts), served by the kind's feature
 * functions, which check ownership and revisions.
 */
export function registerEditableRoutes<R extends Routes>(
  api: FastifyInstance,
  routes: R,
  idName: keyof z.output<R['draft']['params']>,
  kind: EditableKind<R>,
): void {
  // Typed for any kind, the params are a string record: the schemas already checked each.
  const idOf = (params: Record<string, string>) => String(params[idName as string])
  serve<R['list']>(api, routes.list, async ({ query }) => kind.list(query))
  serve<R['listByAuthor']>(api, routes.listByAuthor, async ({ params, query }) =>
    kind.list(query, params.username),
  )
  serve<R['read']>(api, routes.read, async ({ params, actor }) =>
    kind.read({ username: String(params.username), id: idOf(params) }, actor),
  )
  serve<R['create']>(api, routes.create, async ({ sent, actor }) => kind.create(actor, sent.body))
  serve<R['draft']>(api, routes.draft, async ({ params, actor }) =>
    kind.readDraft(actor, idOf(params)),
  )
  serve<R['update']>(api, routes.update, async ({ params, sent, actor }) =>
    kind.update(actor, idOf(params), sent.body),
  )
  serve<R['publish']>(api, routes.publish, async ({ params, sent, actor }) =>
    kind.publish(actor, idOf(params), sent.body),
  )
  serve<R['unpublish']>(api, routes.unpublish, async ({ params, sent, actor }) =>
    kind.unpublish(actor, idOf(params), sent.body),
  )
  serve<R['publishRevision']>(api, routes.publishRevision, async ({ params, sent, actor }) =>
    kind.publishRevision(actor, idOf(params), sent.body),
  )
  serve<R['discardRevision']>(api, routes.discardRevision, async ({ params, sent, actor }) =>
    kind.discardRevision(actor, idOf(params), sent.body),
  )
  serve<R['remove']>(api, routes.remove, async ({ params, actor }) =>
    kind.remove(actor, idOf(params)),
  )
}
