import type { Kysely } from 'kysely'
import type { ContentKind, DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { ContentError } from '#features/content-error.ts'
import { CONTENT_KINDS, contentPath } from '#features/content-kinds.ts'
import type { DraftEntry } from '#features/drafts/draft-views.ts'

export type { DraftEntry }

/** At most this many drafts are listed; older ones follow as the newer are published or deleted. */
export const DRAFTS_LIMIT = 100

/**
 * `/drafts`: the actor's unpublished courses, studies, labs and lab stories, newest change
 * first. It reads the tables directly; publishing and deleting go through each kind's feature.
 */
export async function listMyDrafts(
  db: Kysely<DB>,
  actor: Actor | undefined,
): Promise<DraftEntry[]> {
  if (!actor) throw ContentError.signInRequired()
  const owner = await db
    .selectFrom('users')
    .select('username')
    .where('id', '=', actor.userId)
    .executeTakeFirst()
  if (!owner) return []
  const kinds = Object.keys(CONTENT_KINDS) as ContentKind[]
  const perKind = await Promise.all(
    kinds.map(async (kind) => {
      // Every publishable table has these columns; the query is typed against one of them.
      const rows = await db
        .selectFrom(CONTENT_KINDS[kind].table as 'studies')
        .select(['id', 'title', 'updated_at', 'revision'])
        .where('owner_id', '=', actor.userId)
        .where('status', '=', 'draft')
        .orderBy('updated_at', 'desc')
        .orderBy('id', 'desc')
        .limit(DRAFTS_LIMIT)
        .execute()
      return rows.map(
        (row): DraftEntry => ({
          kind,
          id: row.id,
          title: row.title,
          updatedAt: row.updated_at,
          revision: row.revision,
          editPath: `${contentPath(kind, owner.username, row.id)}/edit`,
        }),
      )
    }),
  )
  return perKind
    .flat()
    .sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? 1 : -1))
    .slice(0, DRAFTS_LIMIT)
}
