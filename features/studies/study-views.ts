import { z } from 'zod'
import { authoredItemFields, authorRef, pendingSince } from '#features/content-views.ts'

/** Zod schemas of what studies' reads answer (types inferred from them, see content-views.ts). */

/** A published study as lists show it. */
export const studyCard = z.object({
  id: z.string(),
  title: z.string(),
  summary: z.string(),
  tags: z.array(z.string()),
  publishedAt: z.number(),
  author: authorRef,
})
export type StudyCard = z.output<typeof studyCard>

/** A study as one viewer sees it (notes as Markdown); safe to send to the browser. */
export const studyView = z.object({
  id: z.string(),
  title: z.string(),
  summary: z.string(),
  notes: z.string(),
  tags: z.array(z.string()),
  /** "n / m solved" of its exercise set, for this viewer (a guest has solved none). */
  exercises: z.object({ solved: z.number(), total: z.number() }),
  ...authoredItemFields,
})
export type StudyView = z.output<typeof studyView>

/** Everything the study editor edits, with the revision its saves are based on. */
export const studyDraft = studyView
  .pick({
    id: true,
    title: true,
    summary: true,
    notes: true,
    tags: true,
    status: true,
    revision: true,
  })
  .extend({ pendingSince })
export type StudyDraft = z.output<typeof studyDraft>
