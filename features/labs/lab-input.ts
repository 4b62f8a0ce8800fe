import { z } from 'zod'
import { objectKey, revision, title } from '#features/courses/course-input.ts'
import { markdownBodySchema } from '#features/markdown/body.ts'
import { tagListSchema } from '#features/tags/normalize.ts'

// What authors may send when editing a lab or a lab story: shared by the editors and the
// server, which validates every write whatever the browser checked.

export const SCREENSHOTS_PER_LAB = 8

/** A repository or demo address: http(s) only, so a link never runs script; empty is none. */
function link(what: string) {
  return z
    .string({ error: `${what} は文字列で入力してください` })
    .trim()
    .max(500, `${what} は 500 文字以内で入力してください`)
    .refine((value) => value === '' || /^https?:\/\/[^\s/]+\.[^\s]*$/i.test(value), {
      error: `${what} は https:// から始まる URL で入力してください`,
    })
    .transform((value) => value || null)
    .nullable()
    .default(null)
}

export const labFields = z.object({
  title: title('タイトル'),
  description: markdownBodySchema.default(''),
  tags: tagListSchema.default([]),
  repositoryUrl: link('リポジトリの URL'),
  demoUrl: link('デモの URL'),
  screenshotKeys: z
    .array(objectKey, { error: 'スクリーンショットの指定が正しくありません' })
    .max(SCREENSHOTS_PER_LAB, `スクリーンショットは ${SCREENSHOTS_PER_LAB} 枚までです`)
    .refine((keys) => new Set(keys).size === keys.length, {
      error: '同じスクリーンショットが 2 回指定されています',
    })
    .default([]),
})
export type LabFields = z.infer<typeof labFields>

export const labUpdate = labFields.extend({ revision })

export const labStoryFields = z.object({
  title: title('タイトル'),
  body: markdownBodySchema.default(''),
  tags: tagListSchema.default([]),
  labId: z
    .string({ error: 'ラボの指定が正しくありません' })
    .max(64, 'ラボの指定が正しくありません')
    .transform((value) => value || null)
    .nullable()
    .default(null),
  coverKey: objectKey.nullable().default(null),
})
export type LabStoryFields = z.infer<typeof labStoryFields>

export const labStoryUpdate = labStoryFields.extend({ revision })

/** The story editor's choice of labs: for the story being edited, or for a new one. */
export const labChoicesQuery = z.object({
  storyId: z.string({ error: 'ストーリーの指定が正しくありません' }).min(1).max(64).optional(),
})
