import { z } from 'zod'
import { moderationNote, moderationSubjectKind, REPORT_REASONS } from './report-input.ts'

/**
 * Zod schemas of what moderation answers (/api and the admin pages): browser-safe, so the route
 * contracts and the pages type-check against what the server fills in.
 */

const reason = z.enum(Object.keys(REPORT_REASONS) as [keyof typeof REPORT_REASONS])

export const moderationSubjectView = z.object({
  kind: moderationSubjectKind,
  id: z.string(),
  owner: z
    .object({
      id: z.string(),
      username: z.string(),
      displayName: z.string(),
      suspendedAt: z.number().nullable(),
    })
    .nullable(),
  title: z.string(),
  excerpt: z.string(),
  path: z.string().nullable(),
  status: z.enum(['draft', 'published']).nullable(),
  hidden: z.object({ at: z.number(), reason: z.string() }).nullable(),
  deleted: z.boolean(),
  room: z.object({ id: z.string(), seq: z.number() }).nullable(),
  withheld: z.boolean(),
})

export const queueStatus = z.enum(['open', 'resolved'])

export const queueEntry = z.object({
  kind: moderationSubjectKind,
  id: z.string(),
  count: z.number(),
  reasons: z.array(reason),
  latestAt: z.number(),
  /** Undefined once the item no longer exists (its reports stay). */
  subject: moderationSubjectView.optional(),
})

export const moderationItemView = z.object({
  subject: moderationSubjectView.optional(),
  context: z.array(
    z.object({
      id: z.string(),
      sender: z.string(),
      body: z.string(),
      createdAt: z.number(),
      deleted: z.boolean(),
    }),
  ),
  reports: z.array(
    z.object({
      id: z.string(),
      reporter: z.string(),
      reason,
      note: z.string(),
      status: queueStatus,
      createdAt: z.number(),
      updatedAt: z.number(),
    }),
  ),
  actions: z.array(
    z.object({
      id: z.string(),
      actor: z.string(),
      action: z.enum(['hide', 'unhide', 'suspend', 'unsuspend', 'dismiss']),
      note: z.string(),
      createdAt: z.number(),
    }),
  ),
})

/** What an admin does to a reported item, with an optional note (told to the author on a hide). */
export const moderationActionInput = z.object({
  action: z.enum(['hide', 'unhide', 'suspend', 'unsuspend', 'dismiss']),
  note: moderationNote,
})

export const MODERATION_ACTION_LABELS: Record<
  z.output<typeof moderationActionInput>['action'],
  string
> = {
  hide: '非表示にした',
  unhide: '再表示した',
  suspend: '利用停止にした',
  unsuspend: '利用停止を解除した',
  dismiss: '報告を却下した',
}
