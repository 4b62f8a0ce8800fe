import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import type { MarkdownRenderer } from '#features/markdown/stored-html.server.ts'
import { type CommentPage, listComments } from './comments.server.ts'
import { type LikeState, readLikes } from './likes.server.ts'
import type { Subject } from './subjects.server.ts'

/** What an item's page shows below it: its likes and the first page of its comments. */
export type SocialView = { likes: LikeState; comments: CommentPage }

/** For page loaders: the same feature functions /api/likes and /api/comments call. */
export async function socialView(
  db: Kysely<DB>,
  renderer: MarkdownRenderer,
  viewer: Actor | undefined,
  subject: Subject,
  commentPageSize: number,
): Promise<SocialView> {
  return {
    likes: await readLikes(db, viewer, subject),
    comments: await listComments(db, renderer, viewer, subject, { limit: commentPageSize }),
  }
}
