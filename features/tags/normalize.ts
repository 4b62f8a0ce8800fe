import { z } from 'zod'

export const TAG_MAX_LENGTH = 30
export const TAGS_PER_ITEM = 10

/**
 * One spelling per tag: NFKC folds full-width and half-width forms ("ＪａｖａＳｃｒｉｐｔ" →
 * "JavaScript"), then lower case, trimmed, and inner whitespace becomes one hyphen, so
 * "React Native" and "react-native" are the same tag and every tag is one URL path segment.
 */
export function normalizeTag(raw: string): string {
  return raw.normalize('NFKC').toLowerCase().trim().replace(/\s+/gu, '-')
}

// Letters of any script (with their combining marks), digits, and the punctuation that
// programming names use: c++, c#, node.js, objective-c, snake_case.
const TAG_CHARACTERS = /^[\p{L}\p{M}\p{Nd}+#.\-_]+$/u
const HAS_LETTER_OR_DIGIT = /[\p{L}\p{Nd}]/u

/** Why a normalised tag is refused, in Japanese, or null when it is fine. */
export function tagProblem(tag: string): string | null {
  const length = [...tag].length
  if (length === 0) return '空のタグは付けられません。'
  if (length > TAG_MAX_LENGTH) return `タグは1つ${TAG_MAX_LENGTH}文字以内にしてください。`
  if (!TAG_CHARACTERS.test(tag) || !HAS_LETTER_OR_DIGIT.test(tag)) {
    return `タグ「${tag}」には文字・数字と + # . - _ だけが使えます。`
  }
  return null
}

/** One tag from user input, normalised and checked. */
export const tagSchema = z
  .string({ error: 'タグを文字列で入力してください。' })
  .transform(normalizeTag)
  .check((ctx) => {
    const problem = tagProblem(ctx.value)
    if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value })
  })

/** An item's tags: each normalised, duplicates merged (first spelling's position kept), at most ten. */
export const tagListSchema = z
  .array(tagSchema, { error: 'タグの一覧を配列で入力してください。' })
  .transform((tags) => [...new Set(tags)])
  .pipe(z.array(z.string()).max(TAGS_PER_ITEM, { error: `タグは${TAGS_PER_ITEM}個までです。` }))
