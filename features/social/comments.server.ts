import type { ExpressionBuilder, Kysely } from 'kysely'
import type { z } from 'zod'
import { newContentId } from '#db/ids.ts'
import type { DB } from '#db/schema.ts'
import { type Actor, mayEdit } from '#features/actor.ts'
import { ContentError, parseInput } from '#features/content-error.ts'
import { type MarkdownRenderer, renderedHtml } from '#features/markdown/stored-html.server.ts'
import { afterCursor } from '#features/pagination.server.ts'
import { pageFrom, pageQuery } from '#features/pagination.ts'
import { hiddenOf } from '#features/readable-item.server.ts'
import type { CommentPage, CommentThread, CommentView } from '#features/social/social-views.ts'
import { blockedEitherWay } from '#features/users/blocks.server.ts'
import { commentUpdate, newComment } from './comment-input.ts'
import { notify } from './notifications.server.ts'
import {
  actingUser,
  type Subject,
  subjectSchema,
  type VisibleSubject,
  visibleSubject,
} from './subjects.server.ts'

export type { CommentPage, CommentThread, CommentView }

type CommentRow = {
  id: string
  parent_id: string | null
  author_id: string | null
  body: string
  created_at: number
  updated_at: number
  username: string | null
  display_name: string | null
  hidden_at: number | null
  hidden_reason: string | null
}

function commentView(
  row: CommentRow,
  html: string,
  subject: VisibleSubject,
  viewer: Actor | undefined,
) {
  const isAuthor = viewer !== undefined && row.author_id === viewer.userId
  return {
    id: row.id,
    parentId: row.parent_id,
    author:
      row.username === null || row.display_name === null
        ? null
        : { username: row.username, displayName: row.display_name },
    body: row.body,
    html,
    createdAt: row.created_at,
    edited: row.updated_at > row.created_at,
    canEdit: isAuthor,
    canDelete: isAuthor || mayEdit(viewer, subject.ownerId),
    hidden: hiddenOf(row),
  } satisfies CommentView
}

function commentRows(db: Kysely<DB>) {
  return db
    .selectFrom('comments')
    .leftJoin('users', 'users.id', 'comments.author_id')
    .select([
      'comments.id',
      'comments.parent_id',
      'comments.author_id',
      'comments.body',
      'comments.created_at',
      'comments.updated_at',
      'comments.hidden_at',
      'comments.hidden_reason',
      'users.username',
      'users.display_name',
    ])
}

/** Comments hidden by moderation reach only their author and admins (decision 039). */
function shownTo(viewer: Actor | undefined) {
  return (eb: ExpressionBuilder<DB, 'comments'>) =>
    viewer?.isAdmin
      ? eb.lit(true)
      : eb.or([
          eb('comments.hidden_at', 'is', null),
          eb('comments.author_id', '=', viewer?.userId ?? ''),
        ])
}

/** How many comments (replies included) an item has. */
async function countComments(db: Kysely<DB>, subject: Subject): Promise<number> {
  const row = await db
    .selectFrom('comments')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('subject_kind', '=', subject.kind)
    .where('subject_id', '=', subject.id)
    .where('hidden_at', 'is', null)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/** The comments' bodies as HTML: rendered once per version, off the request thread. */
async function commentHtml(db: Kysely<DB>, renderer: MarkdownRenderer, rows: CommentRow[]) {
  const html = await renderedHtml(
    db,
    renderer,
    rows.map((row) => ({ kind: 'comment', id: row.id, source: row.body })),
  )
  return new Map(rows.map((row, index) => [row.id, html[index] ?? '']))
}

/** An item's comments, newest thread first, each with its replies; 404 for a hidden item. */
export async function listComments(
  db: Kysely<DB>,
  renderer: MarkdownRenderer,
  viewer: Actor | undefined,
  subjectInput: z.input<typeof subjectSchema>,
  queryInput: z.input<typeof pageQuery>,
): Promise<CommentPage> {
  const subject = await visibleSubject(db, parseInput(subjectSchema, subjectInput), viewer)
  const query = parseInput(pageQuery, queryInput)
  let threads = commentRows(db)
    .where('comments.subject_kind', '=', subject.kind)
    .where('comments.subject_id', '=', subject.id)
    .where('comments.parent_id', 'is', null)
    .where(shownTo(viewer))
  if (query.cursor) {
    threads = threads.where(afterCursor(query.cursor, 'comments.created_at', 'comments.id'))
  }
  const page = pageFrom(
    await threads
      .orderBy('comments.created_at', 'desc')
      .orderBy('comments.id', 'desc')
      .limit(query.limit + 1)
      .execute(),
    query.limit,
    (row) => ({ at: row.created_at, id: row.id }),
  )
  const parentIds = page.items.map((row) => row.id)
  const replies =
    parentIds.length === 0
      ? []
      : await commentRows(db)
          .where('comments.parent_id', 'in', parentIds)
          .where(shownTo(viewer))
          .orderBy('comments.created_at')
          .orderBy('comments.id')
          .execute()
  const html = await commentHtml(db, renderer, [...page.items, ...replies])
  const view = (row: CommentRow) => commentView(row, html.get(row.id) ?? '', subject, viewer)
  return {
    items: page.items.map((row) => ({
      ...view(row),
      replies: replies.filter((reply) => reply.parent_id === row.id).map(view),
    })),
    nextCursor: page.nextCursor,
    total: await countComments(db, subject),
  }
}

/**
 * Comments on an item, or replies to a top-level comment of it. The owner of the item hears
 * of a comment; the author of the parent hears of a reply.
 */
export async function postComment(
  db: Kysely<DB>,
  renderer: MarkdownRenderer,
  actor: Actor | undefined,
  subjectInput: z.input<typeof subjectSchema>,
  input: z.input<typeof newComment>,
  now = Date.now(),
): Promise<CommentView> {
  if (!actor) throw ContentError.signInRequired()
  const requested = parseInput(subjectSchema, subjectInput)
  const fields = parseInput(newComment, input)
  const posted = await db.transaction().execute(async (trx) => {
    const author = await actingUser(trx, actor)
    const subject = await visibleSubject(trx, requested, author)
    const parent = fields.parentId ? await parentComment(trx, subject, fields.parentId) : undefined
    // Nobody comments on the items, or answers the comments, of someone who blocks them or whom they block.
    for (const other of [subject.ownerId, parent?.author_id]) {
      if (other && other !== actor.userId && (await blockedEitherWay(trx, actor.userId, other))) {
        throw new ContentError('FORBIDDEN', 'このコンテンツにはコメントできません')
      }
    }
    const id = await insertComment(
      trx,
      { subject, parentId: parent?.id ?? null, authorId: actor.userId, body: fields.body },
      now,
    )
    await notifyOfComment(
      trx,
      { subject, ownerId: subject.ownerId, parentAuthorId: parent?.author_id ?? null },
      { actorId: actor.userId, commentId: id },
      now,
    )
    const row = await commentRows(trx).where('comments.id', '=', id).executeTakeFirstOrThrow()
    return { row, subject }
  })
  return viewWithHtml(db, renderer, posted, actor)
}

/** A comment just written, rendered after its transaction so no render holds the database. */
async function viewWithHtml(
  db: Kysely<DB>,
  renderer: MarkdownRenderer,
  { row, subject }: { row: CommentRow; subject: VisibleSubject },
  viewer: Actor,
): Promise<CommentView> {
  const html = await commentHtml(db, renderer, [row])
  return commentView(row, html.get(row.id) ?? '', subject, viewer)
}

/** Stores a comment (or a reply, given its parent's id) whose body is already checked; answers its id. */
export async function insertComment(
  trx: Kysely<DB>,
  comment: { subject: Subject; parentId: string | null; authorId: string; body: string },
  now: number,
): Promise<string> {
  const id = newContentId()
  await trx
    .insertInto('comments')
    .values({
      id,
      subject_kind: comment.subject.kind,
      subject_id: comment.subject.id,
      parent_id: comment.parentId,
      author_id: comment.authorId,
      body: comment.body,
      created_at: now,
      updated_at: now,
    })
    .execute()
  return id
}

/**
 * Tells of a new comment: the parent's author hears of a reply, and the item's owner of the
 * comment unless they were the one answered.
 */
export async function notifyOfComment(
  trx: Kysely<DB>,
  about: { subject: Subject; ownerId: string; parentAuthorId: string | null },
  comment: { actorId: string; commentId: string },
  now: number,
): Promise<void> {
  const subject = { kind: about.subject.kind, id: about.subject.id }
  if (about.parentAuthorId) {
    await notify(
      trx,
      { recipientId: about.parentAuthorId, kind: 'reply', subject, ...comment },
      now,
    )
  }
  if (about.parentAuthorId !== about.ownerId) {
    await notify(trx, { recipientId: about.ownerId, kind: 'comment', subject, ...comment }, now)
  }
}

/** The comment a reply answers: a top-level comment of the same item. */
async function parentComment(trx: Kysely<DB>, subject: Subject, parentId: string) {
  const parent = await trx
    .selectFrom('comments')
    .select(['id', 'parent_id', 'author_id'])
    .where('id', '=', parentId)
    .where('subject_kind', '=', subject.kind)
    .where('subject_id', '=', subject.id)
    .executeTakeFirst()
  if (!parent) {
    throw ContentError.validation([
      { path: ['parentId'], message: '返信先のコメントが見つかりません' },
    ])
  }
  if (parent.parent_id !== null) {
    throw ContentError.validation([
      { path: ['parentId'], message: '返信に返信することはできません' },
    ])
  }
  return parent
}

/** A comment and its item, once the actor may see the item (else 404). */
async function commentOnVisibleSubject(
  trx: Kysely<DB>,
  actor: Actor | undefined,
  commentId: string,
) {
  if (!actor) throw ContentError.signInRequired()
  const comment = await trx
    .selectFrom('comments')
    .select(['id', 'subject_kind', 'subject_id', 'author_id'])
    .where('id', '=', commentId)
    .executeTakeFirst()
  if (!comment) throw ContentError.notFound('コメントが見つかりません')
  const subject = await visibleSubject(
    trx,
    { kind: comment.subject_kind, id: comment.subject_id },
    actor,
  )
  return { comment, subject, actor }
}

/** Its author edits a comment. */
export async function updateComment(
  db: Kysely<DB>,
  renderer: MarkdownRenderer,
  actor: Actor | undefined,
  commentId: string,
  input: z.input<typeof commentUpdate>,
  now = Date.now(),
): Promise<CommentView> {
  const updated = await db.transaction().execute(async (trx) => {
    const found = await commentOnVisibleSubject(trx, actor, commentId)
    const { body } = parseInput(commentUpdate, input)
    if (found.comment.author_id !== found.actor.userId) {
      throw new ContentError('FORBIDDEN', 'コメントを編集できるのは投稿した本人だけです')
    }
    await trx
      .updateTable('comments')
      .set({ body, updated_at: now })
      .where('id', '=', commentId)
      .execute()
    const row = await commentRows(trx)
      .where('comments.id', '=', commentId)
      .executeTakeFirstOrThrow()
    return { row, subject: found.subject, actor: found.actor }
  })
  return viewWithHtml(db, renderer, updated, updated.actor)
}

/** Deletes a comment with its replies: its author, the item's owner or an admin. */
export async function deleteComment(
  db: Kysely<DB>,
  actor: Actor | undefined,
  commentId: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const { comment, subject } = await commentOnVisibleSubject(trx, actor, commentId)
    if (comment.author_id !== actor?.userId && !mayEdit(actor, subject.ownerId)) {
      throw new ContentError('FORBIDDEN', 'このコメントを削除する権限がありません')
    }
    await trx.deleteFrom('comments').where('id', '=', commentId).execute()
  })
}
