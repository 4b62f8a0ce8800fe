import { z } from 'zod'
import { markdownBodySchema } from '#features/markdown/body.ts'
import { tagListSchema } from '#features/tags/normalize.ts'

// What authors may send when editing a course: shared by the editor (limits, messages) and
// the server (which validates every write, whatever the browser checked).

export const MAX_TITLE_LENGTH = 100
export const MAX_SUMMARY_LENGTH = 500

/** A required one-line title, named `what` in its messages. */
export function title(what: string) {
  return z
    .string({ error: `${what}は文字列で入力してください` })
    .trim()
    .min(1, `${what}を入力してください`)
    .max(MAX_TITLE_LENGTH, `${what}は ${MAX_TITLE_LENGTH} 文字以内で入力してください`)
}

/** A short plain-text summary shown on cards and lists. */
export const summary = z
  .string({ error: '概要は文字列で入力してください' })
  .trim()
  .max(MAX_SUMMARY_LENGTH, `概要は ${MAX_SUMMARY_LENGTH} 文字以内で入力してください`)
  .default('')

export const level = z.enum(['beginner', 'intermediate', 'advanced'], {
  error: 'レベルは入門・中級・上級から選んでください',
})
export const access = z.enum(['free', 'premium'], {
  error: '公開範囲は無料・プレミアムから選んでください',
})

/** The revision the edit was based on (see docs/decisions/013-learning-content-model.md). */
export const revision = z.coerce
  .number({ error: 'リビジョンは整数で指定してください' })
  .int('リビジョンは整数で指定してください')
  .min(1, 'リビジョンは 1 以上です')

/** An object key in the site's bucket, as the upload component reports it (covers, screenshots). */
export const objectKey = z
  .string({ error: '画像の指定が正しくありません' })
  .max(1024, '画像の指定が正しくありません')
  // Identity ids (`region:uuid`) name the uploader's folder, hence the colon.
  .regex(/^[A-Za-z0-9!_.*'()/:-]+$/, '画像の指定が正しくありません')

export const courseFields = z.object({
  title: title('タイトル'),
  summary,
  level: level.default('beginner'),
  access: access.default('free'),
  tags: tagListSchema.default([]),
})
export type CourseFields = z.infer<typeof courseFields>

export const courseUpdate = courseFields.extend({ revision })

/** A new cover (an uploaded image's key), or null to go back to none. */
export const courseCover = z.object({ key: objectKey.nullable(), revision })
export type CourseUpdate = z.infer<typeof courseUpdate>

/** Actions on the course as a whole (publish, unpublish) or its structure name its revision. */
export const basedOnRevision = z.object({ revision })

export const sectionFields = z.object({ title: title('セクション名'), revision })

export const newLesson = z.object({
  sectionId: z.string({ error: 'セクションを指定してください' }).min(1).max(64),
  title: title('レッスン名'),
  revision,
})

export const lessonUpdate = z.object({
  title: title('レッスン名'),
  body: markdownBodySchema,
  access,
  revision,
})
export type LessonUpdate = z.infer<typeof lessonUpdate>

export const move = z.object({
  direction: z.enum(['up', 'down'], { error: '移動する向きは up か down です' }),
  revision,
})
export type Move = z.infer<typeof move>
