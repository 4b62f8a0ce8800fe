import type { Kysely } from 'kysely'
import type { ContentKind, DB } from '#db/schema.ts'
import { ContentError } from '#features/content-error.ts'
import { CONTENT_KINDS, contentPath } from '#features/content-kinds.ts'
import { normalizeTag, tagProblem } from './normalize.ts'

const LINK_TABLES = {
  course: 'course_tags',
  study: 'study_tags',
  lab: 'lab_tags',
  lab_story: 'lab_story_tags',
} as const satisfies Record<ContentKind, string>

/** Published content of one kind or another, as the tag page lists it. */
export type TaggedItem = {
  kind: ContentKind
  id: string
  title: string
  publishedAt: number
  path: string
  author: { username: string; displayName: string }
}

/** At most this many items per kind, newest first. */
export const TAGGED_PER_KIND = 50

/**
 * `/tags/{tag}`: published content of every kind with the tag, newest first. The tag is
 * normalised as authors' tags are, so "ＪａｖａＳｃｒｉｐｔ" finds what was tagged "javascript".
 */
export async function listTaggedContent(
  db: Kysely<DB>,
  rawTag: string,
): Promise<{ tag: string; items: TaggedItem[] }> {
  const tag = normalizeTag(rawTag)
  if (tagProblem(tag)) throw ContentError.notFound('このタグは見つかりません')
  const kinds = Object.keys(CONTENT_KINDS) as ContentKind[]
  const perKind = await Promise.all(
    kinds.map(async (kind) => {
      // Every publishable table and link table has these columns; typed against one of each.
      const table = CONTENT_KINDS[kind].table as 'studies'
      const links = LINK_TABLES[kind] as 'study_tags'
      const rows = await db
        .selectFrom(table)
        .innerJoin(links, `${links}.subject_id`, `${table}.id`)
        .innerJoin('tags', 'tags.id', `${links}.tag_id`)
        .innerJoin('users', 'users.id', `${table}.owner_id`)
        .select([
          `${table}.id`,
          `${table}.title`,
          `${table}.published_at`,
          'users.username',
          'users.display_name',
        ])
        .where('tags.name', '=', tag)
        .where(`${table}.status`, '=', 'published')
        .where(`${table}.hidden_at`, 'is', null)
        .orderBy(`${table}.published_at`, 'desc')
        .limit(TAGGED_PER_KIND)
        .execute()
      return rows.map(
        (row): TaggedItem => ({
          kind,
          id: row.id,
          title: row.title,
          publishedAt: row.published_at ?? 0,
          path: contentPath(kind, row.username, row.id),
          author: { username: row.username, displayName: row.display_name },
        }),
      )
    }),
  )
  return { tag, items: perKind.flat().sort((a, b) => b.publishedAt - a.publishedAt) }
}
