import { sql } from 'kysely'
import { lessonBodyReadableSql } from '#features/plans/plan.server.ts'
import type { SearchEngine, SearchMatch } from './search-engine.ts'
import { containsPattern, isIndexable, SHORT_QUERY_CANDIDATES } from './search-query.ts'

const INDEXED_QUERY_CANDIDATES = 300

type EntryRow = Omit<SearchMatch, 'subjectId' | 'courseId' | 'ownerId' | 'publishedAt'> & {
  subject_id: string
  course_id: string | null
  owner_id: string
  published_at: number | null
}

/**
 * SQLite: FTS5 with the trigram tokenizer over `search_entries` (kept in step by triggers, see
 * migration 0010). Terms of three characters or more go to MATCH, each as a quoted string so
 * no character of the query is FTS syntax; shorter terms, which the trigram index cannot
 * answer, are LIKE conditions over the same rows. Ranked by bm25 with titles weighted, among
 * the INDEXED_QUERY_CANDIDATES entries indexed last (FTS5 reads its matches newest rowid first
 * and stops there: ranking every hit of a common word cost 6 ms at 10,000 courses); a query of
 * short terms only is ranked among its first SHORT_QUERY_CANDIDATES matches.
 */
export const sqliteSearchEngine: SearchEngine = {
  async match(db, { terms, kinds, limit, reader }) {
    const indexed = terms.filter(isIndexable)
    const scanned = terms.filter((term) => !isIndexable(term))
    const kindList = sql.join(kinds.map((kind) => sql.lit(kind)))
    const likeConditions = scanned.map(
      (term) =>
        sql`(e.title like ${containsPattern(term)} escape '\\' or e.body like ${containsPattern(term)} escape '\\')`,
    )
    // A lesson whose body the reader may not read matches on its title alone and comes
    // without its body: the rule of the lesson page, over its lesson and course rows.
    const readable = sql`(e.kind <> 'lesson' or ${lessonBodyReadableSql(reader, {
      courseAccess: 'c.access',
      lessonAccess: 'l.access',
      ownerId: 'c.owner_id',
    })})`
    const titleHasTerms = sql.join(
      terms.map((term) => sql`e.title like ${containsPattern(term)} escape '\\'`),
      sql` and `,
    )
    likeConditions.push(sql`(${readable} or (${titleHasTerms}))`)
    const columns = sql`e.kind, e.subject_id, e.course_id, e.title,
      case when ${readable} then e.body else '' end as body, e.owner_id, e.published_at`
    const lessonRows = sql`
      left join lessons as l on e.kind = 'lesson' and l.id = e.subject_id
      left join courses as c on c.id = l.course_id`
    const query =
      indexed.length > 0
        ? sql<EntryRow>`
            select * from (
              select ${columns}, -bm25(search_fts, 5.0, 1.0) as score
              from search_fts join search_entries as e on e.id = search_fts.rowid ${lessonRows}
              where search_fts match ${indexed.map(ftsString).join(' ')}
                and e.kind in (${kindList})
                ${sql.join(
                  likeConditions.map((condition) => sql`and ${condition}`),
                  sql` `,
                )}
              order by search_fts.rowid desc
              limit ${INDEXED_QUERY_CANDIDATES}
            )
            order by score desc, published_at desc
            limit ${limit}`
        : sql<EntryRow>`
            select * from (
              select ${columns},
                (${sql.join(
                  scanned.map((term) => sql`(e.title like ${containsPattern(term)} escape '\\')`),
                  sql` + `,
                )}) as score
              from search_entries as e ${lessonRows}
              where e.kind in (${kindList}) and ${sql.join(likeConditions, sql` and `)}
              limit ${SHORT_QUERY_CANDIDATES}
            )
            order by score desc, published_at desc
            limit ${limit}`
    const { rows } = await query.execute(db)
    return rows.map((row) => ({
      kind: row.kind,
      subjectId: row.subject_id,
      courseId: row.course_id,
      title: row.title,
      body: row.body,
      ownerId: row.owner_id,
      publishedAt: row.published_at ?? 0,
      score: Number(row.score),
    }))
  },
}

/** An FTS5 string literal: the term verbatim, double quotes doubled. */
function ftsString(term: string): string {
  return `"${term.replaceAll('"', '""')}"`
}
