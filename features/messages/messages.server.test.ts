import type { Kysely } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DB } from '#db/schema.ts'
import { type Database, openTestDatabase, testEngines } from '#db/test-support.ts'
import type { Actor } from '#features/actor.ts'
import { insertTestUsers, refused, snapshotTables } from '#features/content-test-support.ts'
import { follow } from '#features/follows/follows.server.ts'
import { blockUser, readBlockState, unblockUser } from '#features/users/blocks.server.ts'
import { listOutbox } from '#server/mail/outbox.ts'
import { runMessageDigest } from './digest.server.ts'
import { updateDigestSetting } from './digest-settings.server.ts'
import type { MessageEvent } from './events.ts'
import { listMessages, listRoomChanges, MAX_CHANGES } from './message-history.server.ts'
import { MESSAGE_EDIT_WINDOW_MS, MESSAGE_MAX_LENGTH } from './message-input.ts'
import { deleteMessage, editMessage, sendMessage } from './message-writes.server.ts'
import { markRoomRead } from './read-markers.server.ts'
import { listRooms, openRoom, readRoom, setRoomMuted } from './rooms.server.ts'
import { announceTyping } from './typing.server.ts'
import { countUnreadMessages } from './unread.server.ts'

const NOW = Date.UTC(2026, 10, 25, 9, 0, 0)
const actorOf = (name: string): Actor => ({ userId: `user-${name}`, isAdmin: false })
const hana = actorOf('hana')
const taro = actorOf('taro')
const jiro = actorOf('jiro')
const admin: Actor = { userId: 'user-saki', isAdmin: true }

describe.each(testEngines)('direct messages on %s', (engine) => {
  let database: Database & { remove(): Promise<void> }
  let db: Kysely<DB>

  beforeAll(async () => {
    database = await openTestDatabase(engine)
    db = database.db
    await insertTestUsers(db, ['hana', 'taro', 'jiro', 'saki'], NOW)
  })
  afterAll(async () => {
    await database.remove()
  })
  beforeEach(async () => {
    await db.deleteFrom('dm_rooms').execute()
    await db.deleteFrom('user_blocks').execute()
    await db.deleteFrom('follows').execute()
    await db.deleteFrom('mail_outbox').execute()
    await db.updateTable('users').set({ dm_digest: 0, dm_digest_at: null }).execute()
  })

  it('makes one room per pair, whoever starts it and however often', async () => {
    const first = await openRoom(db, hana, { username: 'Taro' }, NOW)
    expect(first.created).toBe(true)
    expect(await openRoom(db, taro, { username: 'hana' }, NOW + 1)).toEqual({
      id: first.id,
      created: false,
    })
    const both = await Promise.all([
      openRoom(db, hana, { username: 'jiro' }, NOW),
      openRoom(db, jiro, { username: 'hana' }, NOW),
    ])
    expect(both[0].id).toBe(both[1].id)
    expect(await db.selectFrom('dm_rooms').select('id').execute()).toHaveLength(2)
    expect(await db.selectFrom('dm_members').select('room_id').execute()).toHaveLength(4)
  })

  it('refuses oneself, unknown users and guests', async () => {
    const self = await refused(openRoom(db, hana, { username: 'hana' }, NOW), 'VALIDATION_FAILED')
    expect(self.fields).toEqual({ username: ['自分自身にはメッセージを送れません'] })
    await refused(openRoom(db, hana, { username: 'nobody' }, NOW), 'NOT_FOUND')
    await refused(openRoom(db, undefined, { username: 'taro' }, NOW), 'SIGN_IN_REQUIRED')
    await refused(
      openRoom(db, { userId: 'user-forged', isAdmin: false }, { username: 'taro' }, NOW),
      'SIGN_IN_REQUIRED',
    )
  })

  it('stores messages in order, counts unread for the other member, and publishes after commit', async () => {
    const { id: roomId } = await openRoom(db, hana, { username: 'taro' }, NOW)
    const events: { to: string[]; event: MessageEvent }[] = []
    const publish = (to: string[], event: MessageEvent) => {
      events.push({ to, event })
    }
    const first = await sendMessage(
      db,
      hana,
      roomId,
      { body: '  こんにちは\n元気？  ' },
      {
        now: NOW + 1,
        publish,
      },
    )
    expect(first).toMatchObject({
      seq: 1,
      sender: 'hana',
      body: 'こんにちは\n元気？',
      deleted: false,
    })
    const second = await sendMessage(
      db,
      hana,
      roomId,
      { body: 'https://example.com' },
      {
        now: NOW + 2,
      },
    )
    expect(second.seq).toBeGreaterThan(first.seq)
    expect(events.map((item) => item.event.type)).toEqual(['message.created', 'room.read'])
    expect(events[0]?.to.sort()).toEqual(['user-hana', 'user-taro'])

    expect(await countUnreadMessages(db, 'user-taro')).toBe(2)
    expect(await countUnreadMessages(db, 'user-hana')).toBe(0)
    const taroRooms = await listRooms(db, taro, {})
    expect(taroRooms.items).toEqual([
      {
        id: roomId,
        other: { username: 'hana', displayName: 'hana さん', avatarKey: null },
        lastMessage: expect.objectContaining({ id: second.id, body: 'https://example.com' }),
        unread: 2,
        muted: false,
        activityAt: NOW + 2,
      },
    ])

    // Taro reads the first one; the marker never moves back nor past the room.
    expect(await markRoomRead(db, taro, roomId, { seq: first.seq })).toEqual({
      readSeq: first.seq,
      unread: 1,
    })
    expect(await markRoomRead(db, taro, roomId, { seq: 0 })).toEqual({
      readSeq: first.seq,
      unread: 1,
    })
    expect(await markRoomRead(db, taro, roomId, { seq: 10_000 })).toEqual({
      readSeq: second.seq,
      unread: 0,
    })
    expect(await readRoom(db, hana, roomId)).toMatchObject({
      other: { username: 'taro' },
      readSeq: second.seq,
      otherReadSeq: second.seq,
    })
  })

  it('keeps a room private: 404 to anyone else, admins included, changing nothing', async () => {
    const { id: roomId } = await openRoom(db, hana, { username: 'taro' }, NOW)
    const message = await sendMessage(db, hana, roomId, { body: 'ひみつ' }, { now: NOW })
    const before = await snapshotTables(db, ['dm_rooms', 'dm_members', 'dm_messages'])
    for (const stranger of [jiro, admin]) {
      await refused(readRoom(db, stranger, roomId), 'NOT_FOUND')
      await refused(listMessages(db, stranger, roomId, {}), 'NOT_FOUND')
      await refused(listRoomChanges(db, stranger, roomId, { after: 0 }), 'NOT_FOUND')
      await refused(sendMessage(db, stranger, roomId, { body: 'やあ' }, { now: NOW }), 'NOT_FOUND')
      await refused(markRoomRead(db, stranger, roomId, { seq: 1 }), 'NOT_FOUND')
      await refused(editMessage(db, stranger, message.id, { body: 'x' }, { now: NOW }), 'NOT_FOUND')
      await refused(deleteMessage(db, stranger, message.id, { now: NOW }), 'NOT_FOUND')
      expect((await listRooms(db, stranger, {})).items).toEqual([])
    }
    await refused(readRoom(db, undefined, roomId), 'SIGN_IN_REQUIRED')
    expect(await snapshotTables(db, ['dm_rooms', 'dm_members', 'dm_messages'])).toEqual(before)
  })

  it('refuses an empty or too long message with a field error', async () => {
    const { id: roomId } = await openRoom(db, hana, { username: 'taro' }, NOW)
    const empty = await refused(sendMessage(db, hana, roomId, { body: '   ' }), 'VALIDATION_FAILED')
    expect(empty.fields).toEqual({ body: ['メッセージを入力してください'] })
    const long = await refused(
      sendMessage(db, hana, roomId, { body: 'あ'.repeat(MESSAGE_MAX_LENGTH + 1) }),
      'VALIDATION_FAILED',
    )
    expect(long.fields).toEqual({ body: ['メッセージは2,000文字以内で入力してください'] })
    expect(
      (await sendMessage(db, hana, roomId, { body: 'あ'.repeat(MESSAGE_MAX_LENGTH) })).body,
    ).toHaveLength(MESSAGE_MAX_LENGTH)
  })

  it('lets the sender edit and delete within 10 minutes, shown to both through the changes', async () => {
    const { id: roomId } = await openRoom(db, hana, { username: 'taro' }, NOW)
    const message = await sendMessage(db, hana, roomId, { body: 'まちがい' }, { now: NOW })
    const kept = await sendMessage(db, taro, roomId, { body: 'へんじ' }, { now: NOW + 1 })
    const seen = (await listRoomChanges(db, taro, roomId, { after: 0 })).version

    await refused(editMessage(db, taro, message.id, { body: 'x' }, { now: NOW }), 'FORBIDDEN')
    const edited = await editMessage(
      db,
      hana,
      message.id,
      { body: 'なおした' },
      { now: NOW + 60_000 },
    )
    expect(edited).toMatchObject({ body: 'なおした', editedAt: NOW + 60_000, seq: message.seq })
    const changes = await listRoomChanges(db, taro, roomId, { after: seen })
    expect(changes.messages.map((item) => [item.id, item.body])).toEqual([[message.id, 'なおした']])
    expect(changes.version).toBeGreaterThan(seen)

    const deleted = await deleteMessage(db, hana, message.id, { now: NOW + 120_000 })
    expect(deleted).toMatchObject({ deleted: true, body: '' })
    await refused(
      editMessage(db, hana, message.id, { body: 'y' }, { now: NOW + 130_000 }),
      'CONFLICT',
    )
    const page = await listMessages(db, taro, roomId, {})
    expect(page.items.map((item) => [item.body, item.deleted])).toEqual([
      ['', true],
      ['へんじ', false],
    ])
    // The text is gone from the database, not only from the answer.
    const stored = await db
      .selectFrom('dm_messages')
      .select('body')
      .where('id', '=', message.id)
      .executeTakeFirstOrThrow()
    expect(stored.body).toBe('')

    const late = NOW + 1 + MESSAGE_EDIT_WINDOW_MS
    const locked = await refused(
      editMessage(db, taro, kept.id, { body: 'z' }, { now: late }),
      'LOCKED',
    )
    expect(locked.message).toBe('送信から10分を過ぎたメッセージは編集・削除できません')
    await refused(deleteMessage(db, taro, kept.id, { now: late }), 'LOCKED')
    expect((await deleteMessage(db, taro, kept.id, { now: late - 1 })).deleted).toBe(true)
  })

  it('pages older messages by seq and catches up in bounded steps', async () => {
    const { id: roomId } = await openRoom(db, hana, { username: 'taro' }, NOW)
    for (let index = 0; index < 5; index += 1) {
      await sendMessage(
        db,
        index % 2 ? taro : hana,
        roomId,
        { body: `m${index}` },
        { now: NOW + index },
      )
    }
    const newest = await listMessages(db, hana, roomId, { limit: 2 })
    expect(newest.items.map((item) => item.body)).toEqual(['m3', 'm4'])
    expect(newest.hasOlder).toBe(true)
    const older = await listMessages(db, hana, roomId, { limit: 2, before: newest.items[0]?.seq })
    expect(older.items.map((item) => item.body)).toEqual(['m1', 'm2'])
    const oldest = await listMessages(db, hana, roomId, { limit: 2, before: older.items[0]?.seq })
    expect(oldest).toMatchObject({ items: [{ body: 'm0' }], hasOlder: false })

    const all = await listRoomChanges(db, hana, roomId, { after: 0 })
    expect(all.messages.map((item) => item.body)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4'])
    expect(all.more).toBe(false)
    expect(await listRoomChanges(db, hana, roomId, { after: all.version })).toMatchObject({
      messages: [],
      version: all.version,
    })
    expect(MAX_CHANGES).toBeLessThanOrEqual(200)
  })

  it('lists rooms by latest activity, pages them, and filters by activity since', async () => {
    const withTaro = await openRoom(db, hana, { username: 'taro' }, NOW)
    const withJiro = await openRoom(db, hana, { username: 'jiro' }, NOW + 1)
    await sendMessage(db, taro, withTaro.id, { body: 'あとから' }, { now: NOW + 5 })
    const rooms = await listRooms(db, hana, {})
    expect(rooms.items.map((room) => [room.other.username, room.unread])).toEqual([
      ['taro', 1],
      ['jiro', 0],
    ])
    const first = await listRooms(db, hana, { limit: 1 })
    expect(first.items.map((room) => room.id)).toEqual([withTaro.id])
    const next = await listRooms(db, hana, { limit: 1, cursor: first.nextCursor ?? '' })
    expect(next).toEqual({
      items: [expect.objectContaining({ id: withJiro.id })],
      nextCursor: null,
    })
    expect((await listRooms(db, hana, { since: NOW + 1 })).items.map((room) => room.id)).toEqual([
      withTaro.id,
    ])
  })

  it('withholds messages from someone the recipient blocks, hides the room from the blocker, tells the sender nothing', async () => {
    const { id: roomId } = await openRoom(db, hana, { username: 'taro' }, NOW)
    const before = await sendMessage(db, hana, roomId, { body: 'ブロック前' }, { now: NOW })
    await blockUser(db, taro, 'hana', NOW + 1)
    expect(await readBlockState(db, taro, 'hana')).toEqual({ blocked: true })
    const events: { to: string[]; event: MessageEvent }[] = []
    const publish = (to: string[], event: MessageEvent) => {
      events.push({ to, event })
    }
    // Hana is not told: her message is stored and shown to her as usual.
    const withheld = await sendMessage(
      db,
      hana,
      roomId,
      { body: 'ブロック後' },
      { now: NOW + 2, publish },
    )
    expect(events.every((item) => item.to.join() === 'user-hana')).toBe(true)
    expect((await listMessages(db, hana, roomId, {})).items.map((item) => item.body)).toEqual([
      'ブロック前',
      'ブロック後',
    ])
    await announceTyping(db, hana, roomId, { publish })
    expect(events.some((item) => item.event.type === 'typing')).toBe(false)
    // Taro no longer sees the room, nor counts her messages.
    await refused(readRoom(db, taro, roomId), 'NOT_FOUND')
    expect((await listRooms(db, taro, {})).items).toEqual([])
    expect(await countUnreadMessages(db, 'user-taro')).toBe(0)
    await refused(openRoom(db, taro, { username: 'hana' }, NOW), 'FORBIDDEN')
    // Unblocked, the room is back with what came before the block; the withheld one stays away.
    await unblockUser(db, taro, 'hana')
    const seen = await listMessages(db, taro, roomId, {})
    expect(seen.items.map((item) => item.id)).toEqual([before.id])
    expect(
      (await listRoomChanges(db, taro, roomId, { after: 0 })).messages.map((m) => m.id),
    ).toEqual([before.id])
    expect(withheld.id).not.toBe(before.id)
    expect(await countUnreadMessages(db, 'user-taro')).toBe(1)
  })

  it('blocking ends follows both ways and refuses new follows and comments between the two', async () => {
    await follow(db, hana, 'taro', NOW)
    await follow(db, taro, 'hana', NOW)
    await blockUser(db, hana, 'taro', NOW)
    expect(await db.selectFrom('follows').selectAll().execute()).toEqual([])
    await refused(follow(db, taro, 'hana', NOW), 'FORBIDDEN')
    await refused(follow(db, hana, 'taro', NOW), 'FORBIDDEN')
    await refused(blockUser(db, hana, 'hana', NOW), 'VALIDATION_FAILED')
    await db.deleteFrom('user_blocks').execute()
  })

  it('a muted room raises no header count and no digest, but /dms still shows its count', async () => {
    const { id: roomId } = await openRoom(db, hana, { username: 'taro' }, NOW)
    await sendMessage(db, hana, roomId, { body: 'おしらせ' }, { now: NOW })
    expect(await setRoomMuted(db, taro, roomId, true)).toEqual({ muted: true })
    expect(await countUnreadMessages(db, 'user-taro')).toBe(0)
    expect((await listRooms(db, taro, {})).items[0]).toMatchObject({ unread: 1, muted: true })
    expect(await readRoom(db, taro, roomId)).toMatchObject({ muted: true })
    await refused(setRoomMuted(db, jiro, roomId, true), 'NOT_FOUND')
    await setRoomMuted(db, taro, roomId, false)
    expect(await countUnreadMessages(db, 'user-taro')).toBe(1)
  })

  it('mails a digest of unread messages once per period, only to those who asked', async () => {
    await db
      .insertInto('identity_users')
      .values([
        {
          sub: 'user-hana',
          username: 'hana',
          email: 'hana@example.com',
          email_verified: 1,
          status: 'CONFIRMED',
          created_at: NOW,
          updated_at: NOW,
        },
        {
          sub: 'user-taro',
          username: 'taro',
          email: 'taro@example.com',
          email_verified: 1,
          status: 'CONFIRMED',
          created_at: NOW,
          updated_at: NOW,
        },
      ] as never)
      .onConflict((conflict) => conflict.column('sub').doNothing())
      .execute()
    const { id: roomId } = await openRoom(db, hana, { username: 'taro' }, NOW)
    await sendMessage(db, hana, roomId, { body: 'おはよう' }, { now: NOW })
    await sendMessage(db, taro, roomId, { body: 'やあ' }, { now: NOW })
    const site = { siteUrl: 'https://techlab.example', siteTitle: 'テックラボ' }
    const later = NOW + 60 * 60 * 1000

    // Off by default: nobody is mailed.
    expect(await runMessageDigest(db, { now: later, ...site })).toEqual([])
    await updateDigestSetting(db, taro, true)
    await updateDigestSetting(db, hana, true)
    // Two instances at once: one mail, to hana (taro read everything when he answered).
    const runs = await Promise.all([
      runMessageDigest(db, { now: later, ...site }),
      runMessageDigest(db, { now: later, ...site }),
    ])
    expect(runs.flat()).toHaveLength(1)
    const mails = await listOutbox(db)
    expect(mails.map((mail) => mail.to)).toEqual(['hana@example.com'])
    expect(mails[0]?.subject).toBe('【テックラボ】未読のメッセージが 1 件あります')
    expect(mails[0]?.text).toContain(`・taro さん（1 件）: https://techlab.example/dms/${roomId}`)
    expect(mails[0]?.text).not.toContain('やあ')

    // The same unread message is not mailed again, even after the period.
    expect(await runMessageDigest(db, { now: later * 2, ...site })).toEqual([])
  })
})
