import { z } from 'zod'
import type { HistoryEventKind, HistoryEventsTable } from '#db/schema.ts'

/** Zod schemas of what /histories answers (types inferred from them, see content-views.ts). */

export const historyEntry = z.object({
  id: z.string(),
  kind: z.enum([
    'lesson_done',
    'published',
    'exercise_solved',
  ]) satisfies z.ZodType<HistoryEventKind>,
  subjectKind: z.enum([
    'course',
    'study',
    'lab',
    'lab_story',
    'lesson',
    'question',
  ]) satisfies z.ZodType<HistoryEventsTable['subject_kind']>,
  at: z.number(),
  subject: z
    .object({ title: z.string(), path: z.string(), courseTitle: z.string().optional() })
    .nullable(),
})
export type HistoryEntry = z.output<typeof historyEntry>

export const historySummary = z.object({
  timeZone: z.string(),
  today: z.string(),
  streaks: z.object({ current: z.number(), longest: z.number() }),
  totals: z.object({
    events: z.number(),
    lessonsDone: z.number(),
    published: z.number(),
    /** Questions solved (each counted at its first correct answer). */
    exercisesSolved: z.number(),
    activeDays: z.number(),
  }),
  heatmap: z.array(z.array(z.object({ day: z.string(), count: z.number() }))),
})
export type HistorySummary = z.output<typeof historySummary>
