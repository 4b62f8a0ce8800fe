import { z } from 'zod'
import { MARKDOWN_MAX_LENGTH, MARKDOWN_TOO_LONG_MESSAGE } from './limits.ts'
import { markdownStructureError } from './structure.ts'

export { MARKDOWN_MAX_LENGTH } from './limits.ts'

/** The structure bounds of `structure.ts` as a refinement, for bodies and comments alike. */
export function withinMarkdownBounds(source: string, context: z.RefinementCtx): void {
  const message = markdownStructureError(source)
  if (message) context.addIssue({ code: 'custom', message })
}

/**
 * A Markdown body at a boundary: refused with a Japanese message when too long or nested too
 * deep to render in bounded time, never rendered.
 */
export const markdownBodySchema = z
  .string({ error: '本文を文字列で入力してください。' })
  .max(MARKDOWN_MAX_LENGTH, { error: MARKDOWN_TOO_LONG_MESSAGE })
  .superRefine(withinMarkdownBounds)
