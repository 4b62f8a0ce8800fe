import { z } from 'zod'
import { authorRef } from '#features/content-views.ts'
import { SEARCH_KINDS } from './search-query.ts'

/** One published piece of content that matched; the HTML fields are escaped text with <mark>s. */
export const searchResult = z.object({
  kind: z.enum(SEARCH_KINDS),
  id: z.string(),
  url: z.string(),
  titleHtml: z.string(),
  snippetHtml: z.string(),
  /** When the best hit of a course was in one of its lessons: that lesson. */
  lesson: z.object({ id: z.string(), titleHtml: z.string(), url: z.string() }).nullable(),
  author: authorRef,
  publishedAt: z.number(),
})
export type SearchResult = z.output<typeof searchResult>
