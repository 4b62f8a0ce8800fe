import { z } from 'zod'
import type { NotificationKind } from '#db/schema.ts'
import { authorRef, contentKind, moderationHidden, pageOf } from '#features/content-views.ts'

/** Zod schemas of what likes, comments and notifications answer (see content-views.ts). */

export const likeState = z.object({ count: z.number(), liked: z.boolean() })
export type LikeState = z.output<typeof likeState>

/** A comment as one viewer sees it; `html` is the body rendered and sanitised on the server. */
export const commentView = z.object({
  id: z.string(),
  parentId: z.string().nullable(),
  /** Null once the author deleted their account (shown as 退会したユーザー). */
  author: authorRef.nullable(),
  body: z.string(),
  html: z.string(),
  createdAt: z.number(),
  edited: z.boolean(),
  /** Only the author edits. */
  canEdit: z.boolean(),
  /** The author, the item's owner and admins delete. */
  canDelete: z.boolean(),
  /** Hidden by moderation (decision 039): only its author (and admins) get it, told why. */
  hidden: moderationHidden,
})
export type CommentView = z.output<typeof commentView>

/** A top-level comment with its replies (one level, oldest first). */
export const commentThread = commentView.extend({ replies: z.array(commentView) })
export type CommentThread = z.output<typeof commentThread>

export const commentPage = pageOf(commentThread).extend({ total: z.number() })
export type CommentPage = z.output<typeof commentPage>

export const notificationKind = z.enum([
  'follow',
  'like',
  'comment',
  'reply',
]) satisfies z.ZodType<NotificationKind>

/** One notification as its recipient sees it. */
export const notificationView = z.object({
  id: z.string(),
  kind: notificationKind,
  actor: authorRef,
  /** The item it is about (none for a follow), with the page to open. */
  subject: z
    .object({ kind: contentKind, id: z.string(), title: z.string(), path: z.string() })
    .nullable(),
  commentId: z.string().nullable(),
  createdAt: z.number(),
  read: z.boolean(),
})
export type NotificationView = z.output<typeof notificationView>

export const unreadCount = z.object({ unread: z.number() })
