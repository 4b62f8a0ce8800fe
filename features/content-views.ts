import { z } from 'zod'
import type { ContentKind, PublicationStatus } from '#db/schema.ts'

/**
 * Zod schemas of what /api and the pages send about content, shared by every kind. The
 * features' result types are inferred from these schemas, so the route contracts (features/api)
 * and the browser client type-check against the same fields the server fills in.
 */

export const authorRef = z.object({ username: z.string(), displayName: z.string() })

export const contentKind = z.enum([
  'course',
  'study',
  'lab',
  'lab_story',
]) satisfies z.ZodType<ContentKind>

export const publicationStatus = z.enum([
  'draft',
  'published',
]) satisfies z.ZodType<PublicationStatus>

/**
 * The fields every authored item's view ends with (studies, labs, lab stories): its publication,
 * its revision, its author, and whether the viewer may edit, publish, unpublish or delete it.
 */
/**
 * Hidden by moderation (decision 039): only its author (and admins) still see it, told why.
 * Null for an item that is shown.
 */
export const moderationHidden = z.object({ at: z.number(), reason: z.string() }).nullable()

export const authoredItemFields = {
  status: publicationStatus,
  hidden: moderationHidden,
  publishedAt: z.number().nullable(),
  updatedAt: z.number(),
  revision: z.number(),
  author: authorRef,
  canEdit: z.boolean(),
}

/** What a create answers: the new item's id and first revision. */
export const created = z.object({ id: z.string(), revision: z.number() })

/** What a save answers: the revision the next save is based on. */
export const saved = z.object({ revision: z.number() })

/**
 * Since when a published item's edits wait to be published with 「更新する」 (epoch ms); null
 * when the editor shows the published version itself.
 */
export const pendingSince = z.number().nullable()

export const published = saved.extend({ publishedAt: z.number() })

/** A page of a list: the items and the cursor of the next page (null on the last). */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() })
}
