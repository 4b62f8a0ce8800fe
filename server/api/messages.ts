import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { messageRoutes as routes } from '#features/api/messages.ts'
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
  options: { limits: MessageLimits; now: () => number; publish?: Publish | undefined },
): void {
  const { publish, now } = options
  /** The sender, once counted against the per-minute limit (guests are refused first). */
  const limitedActor = async (actor: Actor, request: FastifyRequest) => {
    await countMessageAttempt(options.limits, actor.userId, (details, message) =>
      request.log.warn(details, message),
    )
    return actor
  }
  serve(api, routes.rooms, async ({ sent, actor }) => listRooms(db, actor, sent.query))
  serve(api, routes.openRoom, async ({ sent, actor }) => openRoom(db, actor, sent.body, now()))
  serve(api, routes.room, async ({ params, actor }) => readRoom(db, actor, params.roomId))
  serve(api, routes.messages, async ({ params, sent, actor }) =>
    listMessages(db, actor, params.roomId, sent.query),
  )
  serve(api, routes.changes, async ({ params, sent, actor }) =>
    listRoomChanges(db, actor, params.roomId, sent.query),
  )
  serve(api, routes.send, async ({ params, sent, actor }, request) =>
    sendMessage(db, await limitedActor(actor, request), params.roomId, sent.body, {
      now: now(),
      publish,
    }),
  )
  serve(api, routes.edit, async ({ params, sent, actor }, request) =>
    editMessage(db, await limitedActor(actor, request), params.messageId, sent.body, {
      now: now(),
      publish,
    }),
  )
  serve(api, routes.remove, async ({ params, actor }) =>
    deleteMessage(db, actor, params.messageId, { now: now(), publish }),
  )
  serve(api, routes.read, async ({ params, sent, actor }) =>
    markRoomRead(db, actor, params.roomId, sent.body, { publish }),
  )
  serve(api, routes.typing, async ({ params, actor }) =>
    announceTyping(db, actor, params.roomId, { publish }),
  )
  serve(api, routes.mute, async ({ params, body, actor }) =>
    setRoomMuted(db, actor, params.roomId, body.muted),
  )
  serve(api, routes.unread, async ({ actor }) => readUnreadMessages(db, actor))
  serve(api, routes.digest, async ({ actor }) => readDigestSetting(db, actor))
  serve(api, routes.setDigest, async ({ body, actor }) =>
    updateDigestSetting(db, actor, body.digest),
  )
}
