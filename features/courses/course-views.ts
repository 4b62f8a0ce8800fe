import { z } from 'zod'
import type { CourseAccess, CourseLevel } from '#db/schema.ts'
import {
  authorRef,
  moderationHidden,
  pendingSince,
  publicationStatus,
} from '#features/content-views.ts'

/** Zod schemas of what courses' reads answer (types inferred from them, see content-views.ts). */

export const courseLevel = z.enum([
  'beginner',
  'intermediate',
  'advanced',
]) satisfies z.ZodType<CourseLevel>
export const courseAccess = z.enum(['free', 'premium']) satisfies z.ZodType<CourseAccess>

/** A course as lists show it; safe to send to the browser. */
export const courseCard = z.object({
  id: z.string(),
  title: z.string(),
  summary: z.string(),
  level: courseLevel,
  access: courseAccess,
  publishedAt: z.number(),
  /** The cover image, a public object of the site's bucket; null for none. */
  coverKey: z.string().nullable(),
  /** Normalised tags in the author's order. */
  tags: z.array(z.string()),
  author: authorRef,
})
export type CourseCard = z.output<typeof courseCard>

export const lessonEntry = z.object({
  id: z.string(),
  title: z.string(),
  access: courseAccess,
  /** Premium content the viewer's plan does not include. */
  locked: z.boolean(),
  /** The signed-in viewer has marked it done. */
  done: z.boolean(),
})
export type LessonEntry = z.output<typeof lessonEntry>

export const sectionEntry = z.object({
  id: z.string(),
  title: z.string(),
  lessons: z.array(lessonEntry),
})
export type SectionEntry = z.output<typeof sectionEntry>

/** A course page as one viewer sees it; safe to send to the browser. */
export const courseView = z.object({
  id: z.string(),
  title: z.string(),
  summary: z.string(),
  level: courseLevel,
  access: courseAccess,
  status: publicationStatus,
  hidden: moderationHidden,
  publishedAt: z.number().nullable(),
  coverKey: z.string().nullable(),
  revision: z.number(),
  tags: z.array(z.string()),
  author: authorRef,
  /** The viewer may edit, publish, unpublish or delete it. */
  canEdit: z.boolean(),
  sections: z.array(sectionEntry),
  progress: z.object({ done: z.number(), total: z.number() }),
  /** Where start/continue leads: the first lesson not done yet, else the first lesson. */
  nextLessonId: z.string().nullable(),
})
export type CourseView = z.output<typeof courseView>

const lessonLink = z.object({ id: z.string(), title: z.string() }).nullable()

export const lessonView = z.object({
  course: courseView,
  lesson: lessonEntry.extend({
    sectionTitle: z.string(),
    /** Markdown; null while the lesson is locked for the viewer. */
    body: z.string().nullable(),
  }),
  previous: lessonLink,
  next: lessonLink,
})
export type LessonView = z.output<typeof lessonView>

export const lessonDone = z.object({ doneAt: z.number(), newlyDone: z.boolean() })

/** Whether the lesson was done before it was undone (undoing twice is harmless). */
export const lessonUndone = z.object({ wasDone: z.boolean() })

export const editorLesson = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  access: courseAccess,
  revision: z.number(),
})
export type EditorLesson = z.output<typeof editorLesson>

/** Everything the course editor edits, with the revisions its saves are based on. */
export const courseDraft = z.object({
  id: z.string(),
  title: z.string(),
  summary: z.string(),
  level: courseLevel,
  access: courseAccess,
  coverKey: z.string().nullable(),
  tags: z.array(z.string()),
  status: publicationStatus,
  revision: z.number(),
  sections: z.array(
    z.object({ id: z.string(), title: z.string(), lessons: z.array(editorLesson) }),
  ),
  pendingSince,
})
export type CourseDraft = z.output<typeof courseDraft>
