import { type RawBuilder, sql } from 'kysely'
import { lessonBodyReadableSql, type PremiumReader } from '#features/plans/plan.server.ts'
import type { MatchKind, SearchEngine, SearchMatch } from './search-engine.ts'
import { containsPattern, isIndexable, SHORT_QUERY_CANDIDATES } from './search-query.ts'

/** Where each kind's searched text lives; every listed column has a GIN trigram index (0010). */
const SOURCES: Record<
  MatchKind,
  {
    from: RawBuilder<unknown>
    columns: string[]
    courseId: string
    owner: string
    /** When the columns after the title may be matched and returned (else: the title only). */
    readable?: (reader: PremiumReader) => RawBuilder<boolean>
  }
> = {
  course: {
    from: sql`courses as t`,
    columns: ['title', 'summary'],
    courseId: 'null',
    owner: 't',
  },
  lesson: {
    from: sql`lessons as t join courses as c on c.id = t.course_id`,
    columns: ['title', 'body'],
    courseId: 't.course_id',
    owner: 'c',
    readable: (reader) =>
      lessonBodyReadableSql(reader, {
        courseAccess: 'c.access',
        lessonAccess: 't.access',
        ownerId: 'c.owner_id',
      }),
  },
  study: {
    from: sql`studies as t`,
    columns: ['title', 'summary', 'body'],
    courseId: 'null',
    owner: 't',
  },
  lab: {
    from: sql`labs as t`,
    columns: ['title', 'description'],
    courseId: 'null',
    owner: 't',
  },
  lab_story: {
    from: sql`lab_stories as t`,
    columns: ['title', 'body'],
    courseId: 'null',
    owner: 't',
  },
}

type MatchRow = {
  kind: MatchKind
  subject_id: string
  course_id: string | null
  title: string
  body: string
  owner_id: string
  published_at: number | null
  score: number
}

/**
 * PostgreSQL: pg_trgm. Every term must occur (ILIKE, escaped, so `%` and `_` are literal) in
 * one of the searched columns; the GIN trigram indexes answer terms of three characters or
 * more. Ranked by whether the title holds the terms, then by trigram similarity to the title.
 */
export const postgresSearchEngine: SearchEngine = {
  async match(db, { terms, kinds, limit, reader }) {
    const whole = terms.join(' ')
    // No trigram index answers short terms: rank among the first candidates found.
    const shortOnly = !terms.some(isIndexable)
    const selects = kinds.map((kind) => {
      const source = SOURCES[kind]
      const readable = source.readable?.(reader)
      const joined = sql.raw(
        source.columns
          .slice(1)
          .map((column) => `t.${column}`)
          .join(` || E'\\n' || `),
      )
      const body = readable ? sql`case when ${readable} then ${joined} else '' end` : joined
      // A term in any column (which the trigram indexes answer); and where the body may not
      // be read, in the title (the first column) alone: (title or body) and (title or readable).
      const everyTerm = terms.map((term) => {
        const hits = source.columns.map(
          (column) => sql`${sql.ref(`t.${column}`)} ilike ${containsPattern(term)}`,
        )
        const anywhere = sql`(${sql.join(hits, sql` or `)})`
        return readable
          ? sql`${anywhere} and (t.title ilike ${containsPattern(term)} or ${readable})`
          : anywhere
      })
      const titleHasTerms = sql.join(
        terms.map((term) => sql`t.title ilike ${containsPattern(term)}`),
        sql` and `,
      )
      return sql`(
        select ${sql.lit(kind)} as kind, t.id as subject_id, ${sql.raw(source.courseId)} as course_id,
          t.title, ${body} as body, ${sql.raw(`${source.owner}.owner_id`)} as owner_id,
          ${sql.raw(`${source.owner}.published_at`)} as published_at,
          (case when ${titleHasTerms} then 1 else 0 end) + similarity(t.title, ${whole}) as score
        from ${source.from}
        where ${sql.raw(`${source.owner}.status`)} = 'published'
          and ${sql.join(everyTerm, sql` and `)}
        ${shortOnly ? sql`limit ${SHORT_QUERY_CANDIDATES}` : sql``})`
    })
    const { rows } = await sql<MatchRow>`
      ${sql.join(selects, sql` union all `)}
      order by score desc, published_at desc
      limit ${limit}`.execute(db)
    return rows.map(
      (row): SearchMatch => ({
        kind: row.kind,
        subjectId: row.subject_id,
        courseId: row.course_id,
        title: row.title,
        body: row.body,
        ownerId: row.owner_id,
        publishedAt: row.published_at ?? 0,
        score: Number(row.score),
      }),
    )
  },
}
