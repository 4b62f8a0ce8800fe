import { z } from 'zod'

/**
 * Zod schemas of what direct messages answer (/api and pages), and of the realtime events in
 * events.ts. A message's view is the same for both members (no "mine" flag): the browser
 * compares `sender` with the signed-in user, so one event serves both, except for a message
 * hidden by moderation, whose text and reason only its sender receives.
 */

export const messageView = z.object({
  id: z.string(),
  roomId: z.string(),
  /** The message's place in its room: increasing in the order the messages were stored. */
  seq: z.number(),
  /** The room's change counter at this message's last change (creation, edit or deletion). */
  version: z.number(),
  /** The sender's username. */
  sender: z.string(),
  /** Plain text; empty once deleted. */
  body: z.string(),
  createdAt: z.number(),
  editedAt: z.number().nullable(),
  deleted: z.boolean(),
  /**
   * Hidden by moderation (decision 039): the recipient gets it empty, like a deleted one; the
   * sender keeps the text and is told why (`hiddenReason`, null for anyone else).
   */
  hidden: z.boolean(),
  hiddenReason: z.string().nullable(),
  /** Until when the sender may edit or delete it. */
  editableUntil: z.number(),
})
export type MessageView = z.output<typeof messageView>

export const dmUser = z.object({
  username: z.string(),
  displayName: z.string(),
  /** A public object key in the site's bucket, or null for the initial-letter avatar. */
  avatarKey: z.string().nullable(),
})
export type DmUser = z.output<typeof dmUser>

/** One room as /dms lists it for one member. */
export const roomSummary = z.object({
  id: z.string(),
  other: dmUser,
  lastMessage: messageView.nullable(),
  unread: z.number(),
  /** The member muted the room: its messages raise no header count and no digest. */
  muted: z.boolean(),
  activityAt: z.number(),
})
export type RoomSummary = z.output<typeof roomSummary>

/** A room as its page opens it: the other member, both read markers, the change counter. */
export const roomView = z.object({
  id: z.string(),
  other: dmUser,
  version: z.number(),
  /** The seq of the last message the viewer read. */
  readSeq: z.number(),
  /** The seq of the last message the other member read (their 既読). */
  otherReadSeq: z.number(),
  muted: z.boolean(),
})
export type RoomView = z.output<typeof roomView>

/** A page of a room's messages, oldest first; `hasOlder` says scrolling up finds more. */
export const messagePage = z.object({ items: z.array(messageView), hasOlder: z.boolean() })
export type MessagePage = z.output<typeof messagePage>

/** What changed in a room after a version: messages (new, edited, deleted) and read markers. */
export const roomChanges = z.object({
  /** The version these changes bring the client to; ask again from it while `more` is true. */
  version: z.number(),
  messages: z.array(messageView),
  more: z.boolean(),
  readSeq: z.number(),
  otherReadSeq: z.number(),
})
export type RoomChanges = z.output<typeof roomChanges>

export const dmUnread = z.object({ unread: z.number() })
export const readState = z.object({ readSeq: z.number(), unread: z.number() })
export const digestState = z.object({ digest: z.boolean() })
export const muteState = z.object({ muted: z.boolean() })
