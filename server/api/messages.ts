import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { messageRoutes as routes } from '#features/api/messages.ts'
import { ContentError } from '#features/content-error.ts'
import {
  readDigestSetting,
  updateDigestSetting,
} from '#features/messages/digest-settings.server.ts'
import type { Publish } from '#features/messages/events.ts'
import { listMessages, listRoomChanges } from '#features/messages/message-history.server.ts'
import {
  countMessageAttempt,
  type MessageLimits,
} from '#features/messages/message-limits.server.ts'
import {
  deleteMessage,
  editMessage,
  sendMessage,
} from '#features/messages/message-writes.server.ts'
import { markRoomRead } from '#features/messages/read-markers.server.ts'
import { listRooms, openRoom, readRoom, setRoomMuted } from '#features/messages/rooms.server.ts'
import { announceTyping } from '#features/messages/typing.server.ts'
import { readUnreadMessages } from '#features/messages/unread.server.ts'
import { serve } from './serve.ts'

/** Direct messages over /api; events go to the members' open pages after each commit. */
export function registerMessageRoutes(
  api: FastifyInstance,
  db: Kysely<DB>,
  actorOf: (request: FastifyRequest) => Promise<Actor | undefined>,
  options: { limits: MessageLimits; now: () => number; publish?: Publish | undefined },
): void {
  const { publish, now } = options
  /** The sender, once counted against the per-minute limit (guests are refused first). */
  const limitedActor = async (request: FastifyRequest) => {
    const actor = await actorOf(request)
    if (!actor) throw ContentError.signInRequired()
    await countMessageAttempt(options.limits, actor.userId, (details, message) =>
      request.log.warn(details, message),
    )
    return actor
  }
  serve(api, routes.rooms, async ({ sent }, request) =>
    listRooms(db, await actorOf(request), sent.query),
  )
  serve(api, routes.openRoom, async ({ sent }, request) =>
    openRoom(db, await actorOf(request), sent.body, now()),
  )
  serve(api, routes.room, async ({ params }, request) =>
    readRoom(db, await actorOf(request), params.roomId),
  )
  serve(api, routes.messages, async ({ params, sent }, request) =>
    listMessages(db, await actorOf(request), params.roomId, sent.query),
  )
  serve(api, routes.changes, async ({ params, sent }, request) =>
    listRoomChanges(db, await actorOf(request), params.roomId, sent.query),
  )
  serve(api, routes.send, async ({ params, sent }, request) =>
    sendMessage(db, await limitedActor(request), params.roomId, sent.body, {
      now: now(),
      publish,
    }),
  )
  serve(api, routes.edit, async ({ params, sent }, request) =>
    editMessage(db, await limitedActor(request), params.messageId, sent.body, {
      now: now(),
      publish,
    }),
  )
  serve(api, routes.remove, async ({ params }, request) =>
    deleteMessage(db, await actorOf(request), params.messageId, { now: now(), publish }),
  )
  serve(api, routes.read, async ({ params, sent }, request) =>
    markRoomRead(db, await actorOf(request), params.roomId, sent.body, { publish }),
  )
  serve(api, routes.typing, async ({ params }, request) =>
    announceTyping(db, await actorOf(request), params.roomId, { publish }),
  )
  serve(api, routes.mute, async ({ params, body }, request) =>
    setRoomMuted(db, await actorOf(request), params.roomId, body.muted),
  )
  serve(api, routes.unread, async (_input, request) =>
    readUnreadMessages(db, await actorOf(request)),
  )
  serve(api, routes.digest, async (_input, request) =>
    readDigestSetting(db, await actorOf(request)),
  )
  serve(api, routes.setDigest, async ({ body }, request) =>
    updateDigestSetting(db, await actorOf(request), body.digest),
  )
}
