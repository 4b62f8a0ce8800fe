import { z } from 'zod'
import { revision, summary, title } from '#features/courses/course-input.ts'
import { markdownBodySchema } from '#features/markdown/body.ts'
import { tagListSchema } from '#features/tags/normalize.ts'

// What authors may send when editing a study: shared by the editor and the server, which
// validates every write whatever the browser checked. Limits are the courses' ones.

export const studyFields = z.object({
  title: title('タイトル'),
  summary,
  notes: markdownBodySchema.default(''),
  tags: tagListSchema.default([]),
})
export type StudyFields = z.infer<typeof studyFields>

export const studyUpdate = studyFields.extend({ revision })
export type StudyUpdate = z.infer<typeof studyUpdate>
