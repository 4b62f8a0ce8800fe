import { z } from 'zod'

/** Zod schemas of what profiles answer (types inferred from them, see content-views.ts). */

export const publicProfile = z.object({
  username: z.string(),
  displayName: z.string(),
  bio: z.string(),
  /** A public object key in the site's bucket, or null for the initial-letter avatar. */
  avatarKey: z.string().nullable(),
  links: z.array(z.string()),
  joinedAt: z.number(),
})
export type PublicProfile = z.output<typeof publicProfile>

export const profileHeader = publicProfile.extend({
  counts: z.object({ followers: z.number(), followees: z.number(), published: z.number() }),
})
export type ProfileHeader = z.output<typeof profileHeader>

/** The owner's own settings as the settings page edits them. */
export const ownProfile = z.object({
  displayName: z.string(),
  bio: z.string(),
  links: z.array(z.string()),
  timeZone: z.string(),
})

/** Whether the viewer blocks a user (guests block no one). */
export const blockState = z.object({ blocked: z.boolean() })
export type BlockState = z.output<typeof blockState>
