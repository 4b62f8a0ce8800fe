import type { Kysely } from 'kysely'
import { newContentId } from '#db/ids.ts'
import type { DB, HistoryEventKind, HistoryEventsTable } from '#db/schema.ts'

/** Records one event of a learner's history (/histories), inside the caller's transaction. */
export async function recordHistoryEvent(
  db: Kysely<DB>,
  event: {
    userId: string
    kind: HistoryEventKind
    subjectKind: HistoryEventsTable['subject_kind']
    subjectId: string
    at: number
  },
): Promise<void> {
  await db
    .insertInto('history_events')
    .values({
      id: newContentId(),
      user_id: event.userId,
      kind: event.kind,
      subject_kind: event.subjectKind,
      subject_id: event.subjectId,
      at: event.at,
    })
    .execute()
}
