import { z } from 'zod'
import { authoredItemFields, authorRef, pendingSince } from '#features/content-views.ts'

/** Zod schemas of what labs' and stories' reads answer (types inferred, see content-views.ts). */

/** A published lab or lab story as lists show it, with its picture (first screenshot, cover). */
export const labCard = z.object({
  id: z.string(),
  title: z.string(),
  excerpt: z.string(),
  tags: z.array(z.string()),
  imageKey: z.string().nullable(),
  publishedAt: z.number(),
  author: authorRef,
})
export type LabCard = z.output<typeof labCard>
export type LabStoryCard = LabCard

/** What a lab's page and /api show of it (description as Markdown); safe for the browser. */
export const labView = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  repositoryUrl: z.string().nullable(),
  demoUrl: z.string().nullable(),
  /** Object keys of public images, in the author's order. */
  screenshotKeys: z.array(z.string()),
  ...authoredItemFields,
})
export type LabView = z.output<typeof labView>

/** Everything the lab editor edits, with the revision its saves are based on. */
export const labDraft = labView
  .pick({
    id: true,
    title: true,
    description: true,
    tags: true,
    repositoryUrl: true,
    demoUrl: true,
    screenshotKeys: true,
    status: true,
    revision: true,
  })
  .extend({ pendingSince })
export type LabDraft = z.output<typeof labDraft>

export const labRef = z.object({ id: z.string(), title: z.string() })

/** What a lab story's page and /api show of it (body as Markdown). */
export const labStoryView = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  tags: z.array(z.string()),
  coverKey: z.string().nullable(),
  /** The lab it tells of, when the viewer may see that lab. */
  lab: labRef.nullable(),
  ...authoredItemFields,
})
export type LabStoryView = z.output<typeof labStoryView>

/** Everything the story editor edits, with the revision its saves are based on. */
export const labStoryDraft = labStoryView
  .pick({
    id: true,
    title: true,
    body: true,
    tags: true,
    coverKey: true,
    status: true,
    revision: true,
  })
  .extend({ labId: z.string().nullable(), pendingSince })
export type LabStoryDraft = z.output<typeof labStoryDraft>
