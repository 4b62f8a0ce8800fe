import { z } from 'zod'
import { contentKind } from '#features/content-views.ts'

/** One of my unpublished items, whatever its kind. */
export const draftEntry = z.object({
  kind: contentKind,
  id: z.string(),
  title: z.string(),
  updatedAt: z.number(),
  /** What a publish or delete of it must be based on. */
  revision: z.number(),
  /** Where "continue editing" leads. */
  editPath: z.string(),
})
export type DraftEntry = z.output<typeof draftEntry>
