import { z } from 'zod'
import { authorRef, contentKind } from '#features/content-views.ts'

/** Zod schemas of what follows and the feed answer (types inferred, see content-views.ts). */

export const followCard = z.object({
  username: z.string(),
  displayName: z.string(),
  bio: z.string(),
  avatarKey: z.string().nullable(),
  /** When the follow began; lists are ordered by it, newest first. */
  followedAt: z.number(),
  /** The follow row's id, the tie-breaker of the list's cursor. */
  followId: z.string(),
})
export type FollowCard = z.output<typeof followCard>

export const followState = z.object({
  following: z.boolean(),
  followers: z.number(),
  followees: z.number(),
})
export type FollowState = z.output<typeof followState>

/** A published item of any kind, as the feed and profiles list it. */
export const publishedItem = z.object({
  id: z.string(),
  kind: contentKind,
  title: z.string(),
  path: z.string(),
  publishedAt: z.number(),
  author: authorRef,
})
export type PublishedItem = z.output<typeof publishedItem>
