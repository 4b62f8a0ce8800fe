import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  callAs,
  directMessageRoom,
  type Member,
  sendMessage,
} from '#tests/support/direct-messages.ts'
import { fetchPage } from '#tests/support/http.ts'
import { openSocket, pageHeaders, type TestSocket } from '#tests/support/realtime.ts'
import { newSignedInUser } from '#tests/support/signed-in-user.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/**
 * Direct messages through the real server: /api for both members and a stranger, the pages'
 * privacy, the limits (per-user rate, body size), and the events each member's open socket
 * receives once a change is stored. Each test opens its own room between users of its own.
 */
let server: TestServer
const call = (who: Member | undefined, method: string, path: string, body?: unknown) =>
  callAs(server, who, method, path, body)

const LIMIT = 5

beforeAll(async () => {
  server = await startTestServer({ DM_MESSAGES_PER_USER_PER_MINUTE: String(LIMIT) })
}, 60_000)

afterAll(async () => {
  await server?.close()
})

describe('direct messages over /api', () => {
  it('opens one room per pair and answers 404 to anyone else, on the API and the page', async () => {
    const aoi = await newSignedInUser(server, 'aoi')
    const kai = await newSignedInUser(server, 'kai')
    const rin = await newSignedInUser(server, 'rin')
    const opened = await call(aoi, 'POST', '/dms/rooms', { username: kai.username })
    expect(opened).toMatchObject({ status: 200, body: { created: true } })
    const room = opened.body.id
    const again = await call(kai, 'POST', '/dms/rooms', { username: aoi.username.toUpperCase() })
    expect(again.body).toEqual({ id: room, created: false })

    const sent = await call(aoi, 'POST', `/dms/rooms/${room}/messages`, {
      body: 'こんにちは <b>太字?</b>\nhttps://example.com',
    })
    expect(sent.status).toBe(201)
    expect(sent.body).toMatchObject({
      sender: aoi.username,
      body: 'こんにちは <b>太字?</b>\nhttps://example.com',
    })

    for (const [method, path, body] of [
      ['GET', `/dms/rooms/${room}`],
      ['GET', `/dms/rooms/${room}/messages`],
      ['GET', `/dms/rooms/${room}/changes?after=0`],
      ['POST', `/dms/rooms/${room}/messages`, { body: 'のぞき見' }],
      ['POST', `/dms/rooms/${room}/read`, { seq: 1 }],
      ['PUT', `/dms/messages/${sent.body.id}`, { body: 'かきかえ' }],
      ['DELETE', `/dms/messages/${sent.body.id}`],
    ] as const) {
      expect((await call(rin, method, path, body)).status, `${method} ${path}`).toBe(404)
      expect((await call(undefined, method, path, body)).status, `${method} ${path}`).toBe(401)
    }
    expect((await fetchPage(server.url, `/dms/${room}`, rin.cookie)).response.status).toBe(404)
    const members = await fetchPage(server.url, `/dms/${room}`, kai.cookie)
    expect(members.response.status).toBe(200)
    // Shown as text: the markup someone typed is escaped, never run.
    expect(members.html).toContain('&lt;b&gt;太字?&lt;/b&gt;')
    expect(members.html).not.toContain('<b>太字?</b>')
    expect(members.html).toContain('href="https://example.com/"')
    expect((await fetchPage(server.url, '/dms', kai.cookie)).html).toContain('data-unread="1"')
  })

  it('counts unread messages until the reader marks them, and shows the count in the header', async () => {
    const { room, opener: aoi, other: kai } = await directMessageRoom(server)
    await sendMessage(server, aoi, room, 'はじめまして')
    expect((await call(kai, 'GET', '/dms/unread-count')).body).toEqual({ unread: 1 })
    const home = await fetchPage(server.url, '/courses', kai.cookie)
    expect(home.html).toContain('メッセージ（未読 1 件）')
    const changes = await call(kai, 'GET', `/dms/rooms/${room}/changes?after=0`)
    const last = changes.body.messages.at(-1).seq
    expect((await call(kai, 'POST', `/dms/rooms/${room}/read`, { seq: last })).body).toEqual({
      readSeq: last,
      unread: 0,
    })
    expect((await call(aoi, 'GET', `/dms/rooms/${room}`)).body.otherReadSeq).toBe(last)
  })

  it('refuses an empty, a too long and an oversized message with clear errors', async () => {
    const { room, other: kai } = await directMessageRoom(server)
    const empty = await call(kai, 'POST', `/dms/rooms/${room}/messages`, { body: ' ' })
    expect(empty.status).toBe(400)
    expect(empty.body.error.fields).toEqual({ body: ['メッセージを入力してください'] })
    const long = await call(kai, 'POST', `/dms/rooms/${room}/messages`, {
      body: 'あ'.repeat(2_001),
    })
    expect(long.status).toBe(400)
    expect(long.body.error.fields).toEqual({
      body: ['メッセージは2,000文字以内で入力してください'],
    })
    const huge = await call(kai, 'POST', `/dms/rooms/${room}/messages`, {
      body: 'a'.repeat(40_000),
    })
    expect(huge.status).toBe(413)
    expect(huge.body.error).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: '送信する内容が大きすぎます',
    })
  })

  it('edits and deletes within 10 minutes of sending, by the server clock', async () => {
    const { room, opener: aoi, other: kai } = await directMessageRoom(server)
    const sent = await call(kai, 'POST', `/dms/rooms/${room}/messages`, { body: 'まちがい' })
    const edited = await call(kai, 'PUT', `/dms/messages/${sent.body.id}`, {
      body: 'なおした',
    })
    expect(edited.body).toMatchObject({ body: 'なおした', editedAt: expect.any(Number) })
    expect((await call(aoi, 'PUT', `/dms/messages/${sent.body.id}`, { body: 'x' })).status).toBe(
      403,
    )
    server.clock.advance(10 * 60 * 1000)
    const late = await call(kai, 'DELETE', `/dms/messages/${sent.body.id}`)
    expect(late.status).toBe(403)
    expect(late.body.error.message).toBe('送信から10分を過ぎたメッセージは編集・削除できません')
  })

  it('limits how many messages one user sends a minute (429, nothing stored)', async () => {
    const { room, opener: sho, other: rin } = await directMessageRoom(server, ['sho', 'rin'])
    const path = `/dms/rooms/${room}/messages`
    for (let index = 0; index < LIMIT; index += 1) {
      expect((await call(sho, 'POST', path, { body: `${index}` })).status).toBe(201)
    }
    const limited = await call(sho, 'POST', path, { body: 'もう一通' })
    expect(limited.status).toBe(429)
    expect(limited.body.error.code).toBe('RATE_LIMITED')
    // The other member is not limited by it.
    expect((await call(rin, 'POST', path, { body: 'へんじ' })).status).toBe(201)
    const stored = await call(rin, 'GET', `${path}?limit=50`)
    expect(stored.body.items.map((item: { body: string }) => item.body)).not.toContain('もう一通')
    server.clock.advance(61_000)
    expect((await call(sho, 'POST', path, { body: 'もう一通' })).status).toBe(201)
  })
})

describe('direct message events on /realtime', () => {
  const sockets: TestSocket[] = []
  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()))
  })

  it('reach both members once stored, and never a stranger', async () => {
    const { room, opener: aoiUser, other: kaiUser } = await directMessageRoom(server)
    const rinUser = await newSignedInUser(server, 'rin')
    const [aoi, kai, rin] = await Promise.all(
      [aoiUser, kaiUser, rinUser].map((member) =>
        openSocket(server.url, pageHeaders(server.url, member.cookie)),
      ),
    )
    sockets.push(aoi as TestSocket, kai as TestSocket, rin as TestSocket)
    const created = kai?.next('message.created')
    const echoed = aoi?.next('message.created')
    const sent = await call(aoiUser, 'POST', `/dms/rooms/${room}/messages`, { body: 'ライブ' })
    expect((await created)?.data).toEqual({ roomId: room, message: sent.body })
    expect((await echoed)?.data).toEqual({ roomId: room, message: sent.body })

    const read = aoi?.next('room.read')
    await call(kaiUser, 'POST', `/dms/rooms/${room}/read`, { seq: sent.body.seq })
    expect((await read)?.data).toEqual({
      roomId: room,
      username: kaiUser.username,
      seq: sent.body.seq,
    })

    const typing = aoi?.next('typing')
    expect((await call(kaiUser, 'POST', `/dms/rooms/${room}/typing`)).status).toBe(204)
    expect((await typing)?.data).toEqual({ roomId: room, username: kaiUser.username })

    const deleted = kai?.next('message.deleted')
    await call(aoiUser, 'DELETE', `/dms/messages/${sent.body.id}`)
    expect((await deleted)?.data).toMatchObject({
      message: { id: sent.body.id, deleted: true, body: '' },
    })
    expect(rin?.frames.filter((frame) => frame.type.startsWith('message.'))).toEqual([])
  })
})
