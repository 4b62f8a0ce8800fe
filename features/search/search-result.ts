import type { SearchKind } from './search-query.ts'

/** One published piece of content that matched; the HTML fields are escaped text with <mark>s. */
export type SearchResult = {
  kind: SearchKind
  id: string
  url: string
  titleHtml: string
  snippetHtml: string
  /** When the best hit of a course was in one of its lessons: that lesson. */
  lesson: { id: string; titleHtml: string; url: string } | null
  author: { username: string; displayName: string }
  publishedAt: number
}
