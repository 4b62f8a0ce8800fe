import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { socialRoutes as routes } from '#features/api/social.ts'
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
import { serve } from './serve.ts'

/**
 * Likes, comments and notifications: the same feature functions the pages' components call
 * through these routes; they parse what was `sent` at their own boundary. Items are addressed
 * by content kind and id.
 */
export function registerSocialRoutes(
  api: FastifyInstance,
  db: Kysely<DB>,
  markdown: MarkdownRenderer,
  actorOf: (request: FastifyRequest) => Promise<Actor | undefined>,
): void {
  serve(api, routes.likes, async ({ sent }, request) =>
    readLikes(db, await actorOf(request), sent.params),
  )
  serve(api, routes.like, async ({ sent }, request) =>
    likeSubject(db, await actorOf(request), sent.params),
  )
  serve(api, routes.unlike, async ({ sent }, request) =>
    unlikeSubject(db, await actorOf(request), sent.params),
  )

  serve(api, routes.comments, async ({ sent }, request) =>
    listComments(db, markdown, await actorOf(request), sent.params, sent.query),
  )
  serve(api, routes.postComment, async ({ sent }, request) =>
    postComment(db, markdown, await actorOf(request), sent.params, sent.body),
  )
  serve(api, routes.updateComment, async ({ params, sent }, request) =>
    updateComment(db, markdown, await actorOf(request), params.commentId, sent.body),
  )
  serve(api, routes.deleteComment, async ({ params }, request) =>
    deleteComment(db, await actorOf(request), params.commentId),
  )

  serve(api, routes.notifications, async ({ sent }, request) =>
    listNotifications(db, await actorOf(request), sent.query),
  )
  serve(api, routes.unreadCount, async (_input, request) =>
    readUnreadCount(db, await actorOf(request)),
  )
  serve(api, routes.markRead, async (_input, request) =>
    markNotificationsRead(db, await actorOf(request)),
  )
}
