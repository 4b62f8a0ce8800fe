import { z } from 'zod'

export const MAX_TAGS = 10
export const MAX_TAG_LENGTH = 30

/**
 * One spelling per tag: NFKC folds full-width letters and digits to half-width (and half-width
 * katakana to full-width), then lower case, trimmed, inner whitespace collapsed.
 */
export function normaliseTagName(name: string): string {
  return name.normalize('NFKC').toLowerCase().trim().replace(/\s+/gu, ' ')
}

/** (Empty is the minimum length's message.) Letters of any script, digits, and the marks tech names use (C#, C++, Node.js, vue-router). */
const TAG_PATTERN = /^(?:[\p{L}\p{N}\p{M}ー+#._-]+(?: [\p{L}\p{N}\p{M}ー+#._-]+)*)?$/u

export const tagName = z
  .string({ error: 'タグは文字列で指定してください' })
  .transform(normaliseTagName)
  .pipe(
    z
      .string()
      .min(1, '空のタグは指定できません')
      .max(MAX_TAG_LENGTH, `タグは ${MAX_TAG_LENGTH} 文字以内で入力してください`)
      .regex(TAG_PATTERN, 'タグに使えるのは文字、数字と + # . _ - だけです'),
  )

/** An item's tags: normalised, duplicates (after normalising) removed, author's order kept. */
export const tagList = z
  .array(tagName, { error: 'タグは一覧で指定してください' })
  .max(MAX_TAGS, `タグは ${MAX_TAGS} 個までです`)
  .transform((names) => [...new Set(names)])
