import { type Kysely, SqliteAdapter } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { CONTENT_KINDS } from '#features/content-kinds.ts'
import { markdownText } from '#features/markdown/excerpt.ts'
import { premiumReader } from '#features/plans/plan.server.ts'
import { postgresSearchEngine } from './postgres-engine.server.ts'
import type { MatchKind, SearchEngine, SearchMatch } from './search-engine.ts'
import { SEARCH_KINDS, type SearchKind, type SearchQuery, searchTerms } from './search-query.ts'
import type { SearchResult } from './search-result.ts'
import { highlight, snippet } from './snippet.ts'
import { sqliteSearchEngine } from './sqlite-engine.server.ts'

const PATHS: Record<SearchKind, string> = {
  course: 'courses',
  study: 'studies',
  lab: 'labs',
  lab_story: 'labs_stories',
}

/** Each engine answers a few more matches than asked for, as a course's lessons fold into it. */
const MATCHES_PER_RESULT = 3

/** The engine of the database behind `db`. */
export function searchEngineFor(db: Kysely<DB>): SearchEngine {
  return db.getExecutor().adapter instanceof SqliteAdapter
    ? sqliteSearchEngine
    : postgresSearchEngine
}

/**
 * Published content containing every word of the query, best first, as `viewer` (undefined
 * for a guest) may read it: a premium lesson the viewer's plan does not include is found by
 * its title only and shown without a snippet, as its page shows it without its body.
 */
export async function searchPublishedContent(
  db: Kysely<DB>,
  { q, kind, limit }: SearchQuery,
  viewer: Actor | undefined,
): Promise<SearchResult[]> {
  const terms = searchTerms(q)
  const kinds: MatchKind[] = kind
    ? kind === 'course'
      ? ['course', 'lesson']
      : [kind]
    : ['course', 'lesson', ...SEARCH_KINDS.filter((other) => other !== 'course')]
  const matches = await searchEngineFor(db).match(db, {
    terms,
    kinds,
    limit: limit * MATCHES_PER_RESULT,
    reader: await premiumReader(db, viewer),
  })

  const hidden = await hiddenSubjects(db, matches)
  // Matches come best first, so the first one seen of each subject is its best.
  const best = new Map<string, SearchMatch>()
  for (const match of matches) {
    const key =
      match.kind === 'lesson' ? `course:${match.courseId}` : `${match.kind}:${match.subjectId}`
    if (!best.has(key) && !hidden.has(key)) best.set(key, match)
  }
  const chosen = [...best.values()].slice(0, limit)
  if (chosen.length === 0) return []

  const courseIds = chosen.flatMap((match) =>
    match.kind === 'lesson' && match.courseId ? [match.courseId] : [],
  )
  const [owners, courseTitles] = await Promise.all([
    db
      .selectFrom('users')
      .select(['id', 'username', 'display_name'])
      .where('id', 'in', [...new Set(chosen.map((match) => match.ownerId))])
      .execute(),
    courseIds.length > 0
      ? db.selectFrom('courses').select(['id', 'title']).where('id', 'in', courseIds).execute()
      : [],
  ])
  const ownerById = new Map(owners.map((owner) => [owner.id, owner]))
  const courseTitleById = new Map(courseTitles.map((course) => [course.id, course.title]))

  return chosen.flatMap((match): SearchResult[] => {
    const owner = ownerById.get(match.ownerId)
    if (!owner) return []
    const kind: SearchKind = match.kind === 'lesson' ? 'course' : match.kind
    const id = match.kind === 'lesson' ? (match.courseId ?? '') : match.subjectId
    const url = `/${owner.username}/${PATHS[kind]}/${id}`
    const lesson =
      match.kind === 'lesson'
        ? {
            id: match.subjectId,
            titleHtml: highlight(match.title, terms),
            url: `${url}/lessons/${match.subjectId}`,
          }
        : null
    return [
      {
        kind,
        id,
        url,
        titleHtml: highlight(lesson ? (courseTitleById.get(id) ?? '') : match.title, terms),
        // Bodies are Markdown: the snippet is cut from their text, marks dropped.
        snippetHtml: snippet(markdownText(match.body, { code: 'keep' }), terms),
        lesson,
        author: { username: owner.username, displayName: owner.display_name },
        publishedAt: match.publishedAt,
      },
    ]
  })
}

/**
 * Which matched items moderation hid (decision 039), as `kind:id` (a lesson by its course):
 * the index keeps them, the results never show them.
 */
async function hiddenSubjects(db: Kysely<DB>, matches: SearchMatch[]): Promise<Set<string>> {
  const idsOf = new Map<SearchKind, string[]>()
  for (const match of matches) {
    const kind: SearchKind = match.kind === 'lesson' ? 'course' : match.kind
    const id = match.kind === 'lesson' ? match.courseId : match.subjectId
    if (id) idsOf.set(kind, [...(idsOf.get(kind) ?? []), id])
  }
  const hidden = new Set<string>()
  for (const [kind, ids] of idsOf) {
    const rows = await db
      .selectFrom(CONTENT_KINDS[kind].table as 'studies')
      .select('id')
      .where('id', 'in', ids)
      .where('hidden_at', 'is not', null)
      .execute()
    for (const row of rows) hidden.add(`${kind}:${row.id}`)
  }
  return hidden
}
