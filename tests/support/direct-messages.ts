import { callApi } from './http.ts'
import { newSignedInUser, type SignedInMember } from './signed-in-user.ts'
import type { TestServer } from './test-server.ts'

/** Any running server of the site: a test server, or one in a process of its own. */
type Site = Pick<TestServer, 'url'>

export type Member = SignedInMember

/** Calls /api as `who` (no one: signed out). */
export function callAs(
  server: Site,
  who: Member | undefined,
  method: string,
  path: string,
  body?: unknown,
) {
  return callApi(server.url, method, path, who?.cookie, body)
}

/**
 * Two new signed-in users and the direct-message room between them, so a test owns the room
 * it reads and writes.
 */
export async function directMessageRoom(
  server: Site,
  prefixes: [string, string] = ['aoi', 'kai'],
): Promise<{ room: string; opener: Member; other: Member }> {
  const opener = await newSignedInUser(server, prefixes[0])
  const other = await newSignedInUser(server, prefixes[1])
  const opened = await callAs(server, opener, 'POST', '/dms/rooms', { username: other.username })
  if (opened.status !== 200) throw new Error(`opening a room answered ${opened.status}`)
  return { room: opened.body.id, opener, other }
}

/** Sends a message as `who` and returns the stored message. */
export async function sendMessage(server: Site, who: Member, room: string, body: string) {
  const sent = await callAs(server, who, 'POST', `/dms/rooms/${room}/messages`, { body })
  if (sent.status !== 201) throw new Error(`sending a message answered ${sent.status}`)
  return sent.body
}

/**
 * A message of a new room that its recipient (`reporter`) has reported for harassment, with
 * `note` if given: the start of every moderation story.
 */
export async function reportedMessage(server: Site, note?: string) {
  const { room, opener: reporter, other: sender } = await directMessageRoom(server, ['aya', 'ben'])
  const message = await sendMessage(server, sender, room, 'いやなこと')
  const report = { kind: 'message', id: message.id, reason: 'harassment', note }
  const filed = await callAs(server, reporter, 'POST', '/reports', report)
  if (filed.status !== 200) throw new Error(`filing a report answered ${filed.status}`)
  return { room, reporter, sender, messageId: message.id as string }
}
