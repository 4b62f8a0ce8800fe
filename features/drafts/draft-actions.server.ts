import type { Kysely } from 'kysely'
import { z } from 'zod'
import type { DB } from '../../db/schema.ts'
import type { Actor } from '../actor.ts'
import { parseInput } from '../content-error.ts'
import { deleteCourse, publishCourse } from '../courses/course-editing.server.ts'
import { deleteStudy, publishStudy } from '../studies/study-editing.server.ts'

/** What /drafts may do to a draft; labs and lab stories are only linked to their own editors. */
export const draftAction = z.object({
  intent: z.enum(['publish', 'delete'], { error: '操作は公開か削除です' }),
  kind: z.enum(['course', 'study'], { error: 'この種類の下書きはここでは操作できません' }),
  id: z.string({ error: '下書きを指定してください' }).min(1).max(64),
  revision: z.coerce.number().int().min(1).optional(),
})

/** Publishes or deletes one of the actor's drafts through its kind's own feature function. */
export async function actOnDraft(db: Kysely<DB>, actor: Actor | undefined, input: unknown) {
  const { intent, kind, id, revision } = parseInput(draftAction, input)
  if (intent === 'delete') {
    await (kind === 'course' ? deleteCourse : deleteStudy)(db, actor, id)
    return
  }
  await (kind === 'course' ? publishCourse : publishStudy)(db, actor, id, { revision })
}
