import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { PremiumReader } from '#features/plans/plan.server.ts'

/** A lesson matches on behalf of its course; the other kinds match as themselves. */
export type MatchKind = 'course' | 'lesson' | 'study' | 'lab' | 'lab_story'

/** One published text that contains every term, as an engine finds it. */
export type SearchMatch = {
  kind: MatchKind
  subjectId: string
  /** The course a lesson belongs to (null for the other kinds). */
  courseId: string | null
  title: string
  /** Empty for a lesson whose body the reader may not read: it matched on its title alone. */
  body: string
  ownerId: string
  publishedAt: number
  /** Higher is better; comparable only within one engine's answer. */
  score: number
}

/** Full-text matching on one database engine; features/search/search.server.ts picks one. */
export type SearchEngine = {
  match(
    db: Kysely<DB>,
    request: {
      terms: string[]
      kinds: readonly MatchKind[]
      limit: number
      /** Premium lesson bodies are matched and returned only for readers who may read them. */
      reader: PremiumReader
    },
  ): Promise<SearchMatch[]>
}
