import { type Kysely, sql } from 'kysely'

// Likes, comments and notifications (docs/decisions/017-likes-comments-notifications.md).
// Likes and comments are generic over the content kinds, keyed by (subject_kind, subject_id);
// the subject is not a foreign key (four tables), so deleting content deletes them in
// features/social/subject-cleanup.server.ts. Portable as in 001: text ids, bigint epoch ms.

const SUBJECT_KINDS = "subject_kind in ('course', 'study', 'lab', 'lab_story')"

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('likes')
    .addColumn('user_id', 'text', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('subject_kind', 'text', (column) => column.notNull().check(sql.raw(SUBJECT_KINDS)))
    .addColumn('subject_id', 'text', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    // One like per user and item: liking twice cannot count twice.
    .addPrimaryKeyConstraint('likes_pk', ['user_id', 'subject_kind', 'subject_id'])
    .execute()
  // The count of an item's likes, and deleting them with the item.
  await db.schema
    .createIndex('likes_subject_idx')
    .on('likes')
    .columns(['subject_kind', 'subject_id'])
    .execute()

  await db.schema
    .createTable('comments')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('subject_kind', 'text', (column) => column.notNull().check(sql.raw(SUBJECT_KINDS)))
    .addColumn('subject_id', 'text', (column) => column.notNull())
    // Replies are one level deep; deleting a comment deletes its replies.
    .addColumn('parent_id', 'text', (column) =>
      column.references('comments.id').onDelete('cascade'),
    )
    // A deleted account leaves its comments, shown as 退会したユーザー, so replies keep context.
    .addColumn('author_id', 'text', (column) => column.references('users.id').onDelete('set null'))
    .addColumn('body', 'text', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .execute()
  // An item's top-level comments, newest first, paged by (created_at, id).
  await db.schema
    .createIndex('comments_subject_idx')
    .on('comments')
    .columns(['subject_kind', 'subject_id', 'created_at desc', 'id desc'])
    .execute()
  await db.schema
    .createIndex('comments_parent_idx')
    .on('comments')
    .columns(['parent_id', 'created_at'])
    .execute()

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('recipient_id', 'text', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('kind', 'text', (column) =>
      column.notNull().check(sql`kind in ('follow', 'like', 'comment', 'reply')`),
    )
    .addColumn('actor_id', 'text', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('subject_kind', 'text', (column) => column.check(sql.raw(SUBJECT_KINDS)))
    .addColumn('subject_id', 'text')
    .addColumn('comment_id', 'text', (column) =>
      column.references('comments.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('read_at', 'bigint')
    .execute()
  // /notifications: one recipient's list, newest first, paged by (created_at, id).
  await db.schema
    .createIndex('notifications_recipient_idx')
    .on('notifications')
    .columns(['recipient_id', 'created_at desc', 'id desc'])
    .execute()
  await db.schema
    .createIndex('notifications_subject_idx')
    .on('notifications')
    .columns(['subject_kind', 'subject_id'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notifications').execute()
  await db.schema.dropTable('comments').execute()
  await db.schema.dropTable('likes').execute()
}
