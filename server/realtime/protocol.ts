/**
 * What the `/realtime` endpoint promises its clients and product code (docs/decisions/036): the
 * publish seam's types and the close codes a client acts on.
 */

export type RealtimeEvent = { type: string; data: unknown }

export type RealtimePublisher = {
  /** Delivers the event to every open socket of these users on every instance; never throws. */
  publish(userIds: readonly string[], event: RealtimeEvent): void
  /**
   * Closes every open socket of these users on every instance with `code` (an account
   * suspended: its sessions are revoked, so the reconnect is refused too); never throws.
   */
  disconnect(userIds: readonly string[], code: number): void
}

export type RealtimeService = RealtimePublisher & {
  /** Whether events reach every instance (always, without Redis). */
  readonly live: boolean
  /** Sockets open on this instance. */
  readonly connections: number
  /** Closes every socket (1001) and refuses new ones: the first step of a graceful stop. */
  shutdown(): void
}

/** Close codes a client acts on; 1009 (frame too large) and 1007 (not UTF-8) come from `ws`. */
export const CLOSE_CODES = {
  /** The server is stopping or restarting: reconnect (to another instance) soon. */
  goingAway: 1001,
  /** Binary frames are not part of the protocol. */
  unsupportedData: 1003,
  tooLarge: 1009,
  /** Events cannot reach this instance now (Redis down): catch up, poll, reconnect later. */
  tryAgainLater: 1013,
  /** A frame that is not a known JSON message. */
  malformed: 4400,
  /**
   * No valid session: it expired while the socket was open (reconnect with the refreshed
   * cookie), or a page's handshake carried none (signed out, or not yet refreshed).
   */
  sessionExpired: 4401,
  /** The client did not read what was sent to it fast enough: reconnect and catch up. */
  tooSlow: 4408,
  /** The user already has the most sockets allowed on this instance. */
  tooManySockets: 4409,
  /** More frames than a client of this protocol sends. */
  tooManyFrames: 4429,
  /** The account was suspended: its sessions ended (decision 039). */
  accountSuspended: 4403,
} as const

/** The largest frame a client may send: its messages are pings, a few bytes. */
export const MAX_CLIENT_FRAME_BYTES = 4 * 1024

/** The fan-out frame that closes its users' sockets (followed by the close code). */
export const CLOSE_FRAME = '\u0000close:'
