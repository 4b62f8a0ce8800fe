import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
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
): void {
  serve(api, routes.likes, async ({ sent, actor }) => readLikes(db, actor, sent.params))
  serve(api, routes.like, async ({ sent, actor }) => likeSubject(db, actor, sent.params))
  serve(api, routes.unlike, async ({ sent, actor }) => unlikeSubject(db, actor, sent.params))

  serve(api, routes.comments, async ({ sent, actor }) =>
    listComments(db, markdown, actor, sent.params, sent.query),
  )
  serve(api, routes.postComment, async ({ sent, actor }) =>
    postComment(db, markdown, actor, sent.params, sent.body),
  )
  serve(api, routes.updateComment, async ({ params, sent, actor }) =>
    updateComment(db, markdown, actor, params.commentId, sent.body),
  )
  serve(api, routes.deleteComment, async ({ params, actor }) =>
    deleteComment(db, actor, params.commentId),
  )

  serve(api, routes.notifications, async ({ sent, actor }) =>
    listNotifications(db, actor, sent.query),
  )
  serve(api, routes.unreadCount, async ({ actor }) => readUnreadCount(db, actor))
  serve(api, routes.markRead, async ({ actor }) => markNotificationsRead(db, actor))
}
