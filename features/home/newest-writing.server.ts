import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import { listPublishedOfKind, type PublishedItem } from '#features/follows/feed.server.ts'

/** A published study or lab story, as the home page lists it. */
export type WritingCard = PublishedItem

/** The newest published studies or lab stories (uses the `{table}_list_idx` index). */
export async function listNewestWriting(
  db: Kysely<DB>,
  kind: 'study' | 'lab_story',
  limit = 4,
): Promise<WritingCard[]> {
  return listPublishedOfKind(db, kind, { limit })
}
