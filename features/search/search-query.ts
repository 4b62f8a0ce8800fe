import { z } from 'zod'
import { MAX_PAGE_SIZE } from '#features/pagination.ts'
import { SEARCH_QUERY_MAX_LENGTH } from './limits.ts'

export const SEARCH_KINDS = ['course', 'study', 'lab', 'lab_story'] as const
export type SearchKind = (typeof SEARCH_KINDS)[number]

const MAX_TERMS = 5

/** What a search box sends: the words, optionally one kind (the catalogue searches courses only). */
export const searchQuery = z.object({
  q: z
    .string({ error: '検索する言葉を入力してください' })
    .trim()
    .min(1, '検索する言葉を入力してください')
    .max(
      SEARCH_QUERY_MAX_LENGTH,
      `検索する言葉は${SEARCH_QUERY_MAX_LENGTH}文字以内で入力してください`,
    ),
  kind: z.enum(SEARCH_KINDS, { error: '種類の指定が正しくありません' }).optional(),
  limit: z.coerce
    .number({ error: '件数は数値で指定してください' })
    .int('件数は整数で指定してください')
    .min(1, '件数は1以上で指定してください')
    .max(MAX_PAGE_SIZE, `件数は${MAX_PAGE_SIZE}以下で指定してください`)
    .default(20),
})
export type SearchQuery = z.infer<typeof searchQuery>

/**
 * The words of a query, each matched as a literal substring (no operator syntax): full-width
 * spaces separate words as ASCII ones do, and repeated words count once.
 */
export function searchTerms(q: string): string[] {
  const words = q.normalize('NFKC').split(/\s+/u).filter(Boolean)
  return [...new Set(words)].slice(0, MAX_TERMS)
}

/** The trigram index only answers terms of three characters or more; shorter ones are scanned. */
export function isIndexable(term: string): boolean {
  return [...term].length >= 3
}

/**
 * A query of short terms only (変数, JS) has no index to use: its matches are ranked among the
 * first this many rows found rather than among all of them, so that a common two-character word
 * costs a short scan instead of reading every lesson (decision 015).
 */
export const SHORT_QUERY_CANDIDATES = 300

/** A LIKE pattern matching `term` anywhere, with `\` as the escape character. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (character) => `\\${character}`)}%`
}
