import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import type { MarkdownRenderer } from '#features/markdown/stored-html.server.ts'
import {
  deleteComment,
  listComments,
  postComment,
  updateComment,
} from '#features/social/comments.server.ts'
import { likeSubject, readLikes, unlikeSubject } from '#features/social/likes.server.ts'
import {
  listNotifications,
  markNotificationsRead,
  readUnreadCount,
} from '#features/social/notifications.server.ts'
import { pathId, pathParams } from './request-params.ts'

const commentParams = z.object({ commentId: pathId })

/** The item a like or comment route names: `/{kind}/{id}`, checked by the feature. */
function subjectOf(request: FastifyRequest) {
  return request.params as { kind: string; id: string }
}

/**
 * Likes, comments and notifications: the same feature functions the pages' components call
 * through these routes. Items are addressed by content kind and id.
 */
export function registerSocialRoutes(
  api: FastifyInstance,
  db: Kysely<DB>,
  markdown: MarkdownRenderer,
  actorOf: (request: FastifyRequest) => Promise<Actor | undefined>,
): void {
  api.get('/likes/:kind/:id', async (request) =>
    readLikes(db, await actorOf(request), subjectOf(request)),
  )
  api.put('/likes/:kind/:id', async (request) =>
    likeSubject(db, await actorOf(request), subjectOf(request)),
  )
  api.delete('/likes/:kind/:id', async (request) =>
    unlikeSubject(db, await actorOf(request), subjectOf(request)),
  )

  api.get('/comments/:kind/:id', async (request) =>
    listComments(db, markdown, await actorOf(request), subjectOf(request), request.query),
  )
  api.post('/comments/:kind/:id', async (request, reply) => {
    const actor = await actorOf(request)
    const comment = await postComment(db, markdown, actor, subjectOf(request), request.body)
    return reply.code(201).send(comment)
  })
  api.put('/comments/:commentId', async (request) => {
    const { commentId } = pathParams(commentParams, request)
    return updateComment(db, markdown, await actorOf(request), commentId, request.body)
  })
  api.delete('/comments/:commentId', async (request, reply) => {
    const { commentId } = pathParams(commentParams, request)
    await deleteComment(db, await actorOf(request), commentId)
    return reply.code(204).send()
  })

  api.get('/notifications', async (request) =>
    listNotifications(db, await actorOf(request), request.query),
  )
  api.get('/notifications/unread-count', async (request) =>
    readUnreadCount(db, await actorOf(request)),
  )
  api.post('/notifications/read', async (request) =>
    markNotificationsRead(db, await actorOf(request)),
  )
}
