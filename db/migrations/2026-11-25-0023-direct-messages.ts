import { type Kysely, sql } from 'kysely'

// Direct messages (docs/decisions/035): one room per pair of users, its two members'
// read markers, and plain-text messages. Each room counts its changes (`version`): a new
// message takes the next number as its `seq` (its place in the room) and its `version`; an edit
// or a delete gives it the next number again. "What changed after version V" is then one
// indexed query, which is how a client that missed live events (or has no WebSocket) catches up.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dm_rooms')
    .addColumn('id', 'text', (column) => column.primaryKey())
    // The pair in id order, so that one unique constraint makes one room per pair.
    .addColumn('user_low', 'text', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('user_high', 'text', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('version', 'bigint', (column) => column.notNull().defaultTo(0))
    // The room's creation, then each new message's time: /dms lists rooms by it.
    .addColumn('activity_at', 'bigint', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addUniqueConstraint('dm_rooms_pair_unique', ['user_low', 'user_high'])
    .addCheckConstraint('dm_rooms_ordered_pair', sql`user_low < user_high`)
    .execute()

  await db.schema
    .createTable('dm_members')
    .addColumn('room_id', 'text', (column) =>
      column.notNull().references('dm_rooms.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    // The seq of the last message this member has seen (0: none).
    .addColumn('read_seq', 'bigint', (column) => column.notNull().defaultTo(0))
    // The seq up to which the e-mail digest has told this member about unread messages.
    .addColumn('digested_seq', 'bigint', (column) => column.notNull().defaultTo(0))
    // 1: the member muted the room: it raises no unread count in the header and no digest.
    .addColumn('muted', 'integer', (column) => column.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('dm_members_pk', ['room_id', 'user_id'])
    .execute()
  // /dms: a user's rooms.
  await db.schema.createIndex('dm_members_user').on('dm_members').column('user_id').execute()

  await db.schema
    .createTable('dm_messages')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('room_id', 'text', (column) =>
      column.notNull().references('dm_rooms.id').onDelete('cascade'),
    )
    .addColumn('seq', 'bigint', (column) => column.notNull())
    .addColumn('version', 'bigint', (column) => column.notNull())
    .addColumn('sender_id', 'text', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    // Plain text; emptied when the message is deleted.
    .addColumn('body', 'text', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('edited_at', 'bigint')
    .addColumn('deleted_at', 'bigint')
    // 1: sent while the recipient blocked the sender: stored for the sender, never shown to them.
    .addColumn('withheld', 'integer', (column) => column.notNull().defaultTo(0))
    .addUniqueConstraint('dm_messages_room_seq', ['room_id', 'seq'])
    .addUniqueConstraint('dm_messages_room_version', ['room_id', 'version'])
    .execute()

  // `blocker_id` blocked `blocked_id`: no messages, follows or comments between them reach the
  // blocker, and the blocked user is not told.
  await db.schema
    .createTable('user_blocks')
    .addColumn('blocker_id', 'text', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('blocked_id', 'text', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('user_blocks_pk', ['blocker_id', 'blocked_id'])
    .addCheckConstraint('user_blocks_not_self', sql`blocker_id <> blocked_id`)
    .execute()
  await db.schema
    .createIndex('user_blocks_blocked')
    .on('user_blocks')
    .column('blocked_id')
    .execute()

  // The e-mail digest of unread messages: off unless the user turns it on in /settings.
  await db.schema
    .alterTable('users')
    .addColumn('dm_digest', 'integer', (column) => column.notNull().defaultTo(0))
    .execute()
  // When a digest was last considered for the user: one instance claims a user per period.
  await db.schema.alterTable('users').addColumn('dm_digest_at', 'bigint').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('dm_digest_at').execute()
  await db.schema.alterTable('users').dropColumn('dm_digest').execute()
  await db.schema.dropTable('user_blocks').execute()
  await db.schema.dropTable('dm_messages').execute()
  await db.schema.dropTable('dm_members').execute()
  await db.schema.dropTable('dm_rooms').execute()
}
