import { z } from 'zod'
import { withinMarkdownBounds } from '#features/markdown/body.ts'

/** Comments are short; long texts belong in a study or a story. */
export const COMMENT_MAX_LENGTH = 5_000

export const COMMENT_TOO_LONG_MESSAGE = `コメントは${COMMENT_MAX_LENGTH.toLocaleString('ja-JP')}文字以内で入力してください`

export const commentBody = z
  .string({ error: 'コメントを文字列で入力してください' })
  .trim()
  .min(1, 'コメントを入力してください')
  .max(COMMENT_MAX_LENGTH, COMMENT_TOO_LONG_MESSAGE)
  .superRefine(withinMarkdownBounds)

export const commentUpdate = z.object({ body: commentBody })

/** A comment, or a reply when it names the top-level comment it answers. */
export const newComment = z.object({
  body: commentBody,
  parentId: z.string().min(1).max(64).optional(),
})
