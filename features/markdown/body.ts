import { z } from 'zod'
import { MARKDOWN_MAX_LENGTH, MARKDOWN_TOO_LONG_MESSAGE } from './limits.ts'

export { MARKDOWN_MAX_LENGTH } from './limits.ts'

/** A Markdown body at a boundary: refused with a Japanese message when too long, never rendered. */
export const markdownBodySchema = z
  .string({ error: '本文を文字列で入力してください。' })
  .max(MARKDOWN_MAX_LENGTH, { error: MARKDOWN_TOO_LONG_MESSAGE })
