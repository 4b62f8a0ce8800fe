import type { Kysely } from 'kysely'
import { z } from 'zod'
import type { ContentKind, DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { parseInput } from '#features/content-error.ts'
import { deleteCourse, publishCourse } from '#features/courses/course-editing.server.ts'
import type { CodeVerifier } from '#features/exercises/answers.server.ts'
import { deleteLab, publishLab } from '#features/labs/lab-editing.server.ts'
import { deleteLabStory, publishLabStory } from '#features/labs/lab-story-editing.server.ts'
import { deleteStudy, publishStudy } from '#features/studies/study-editing.server.ts'

/** What /drafts may do to a draft of any kind. */
export const draftAction = z.object({
  intent: z.enum(['publish', 'delete'], { error: '操作は公開か削除です' }),
  kind: z.enum(['course', 'study', 'lab', 'lab_story'], {
    error: 'この種類の下書きはここでは操作できません',
  }),
  id: z.string({ error: '下書きを指定してください' }).min(1).max(64),
  revision: z.coerce.number().int().min(1).optional(),
})

type Writes = {
  publish(db: Kysely<DB>, actor: Actor | undefined, id: string, input: unknown): Promise<unknown>
  remove(db: Kysely<DB>, actor: Actor | undefined, id: string): Promise<void>
}

/** Each kind's own feature functions: /drafts checks nothing itself. */
const WRITES: Record<ContentKind, Writes> = {
  course: { publish: publishCourse, remove: deleteCourse },
  study: { publish: publishStudy, remove: deleteStudy },
  lab: { publish: publishLab, remove: deleteLab },
  lab_story: { publish: publishLabStory, remove: deleteLabStory },
}

/**
 * Publishes or deletes one of the actor's drafts through its kind's own feature function. A
 * study with code questions is published only after `verifier` (the server's code sandbox)
 * has passed each reference solution.
 */
export async function actOnDraft(
  db: Kysely<DB>,
  actor: Actor | undefined,
  input: unknown,
  verifier?: CodeVerifier,
) {
  const { intent, kind, id, revision } = parseInput(draftAction, input)
  if (intent === 'delete') await WRITES[kind].remove(db, actor, id)
  else if (kind === 'study') await publishStudy(db, actor, id, { revision }, Date.now(), verifier)
  else await WRITES[kind].publish(db, actor, id, { revision })
}
