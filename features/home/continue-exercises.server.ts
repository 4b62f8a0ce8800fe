import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import { exercisesPath } from '#features/content-kinds.ts'

/** An exercise set the learner has started and not finished, as the home page's card shows it. */
export type ContinueExercisesCard = {
  study: { id: string; title: string; path: string }
  solved: number
  total: number
  /** The first question in the set's order not yet solved, as an anchor of the set's page. */
  nextPath: string
  lastPractisedAt: number
}

/**
 * The published studies whose exercises the learner has attempted but not all solved, most
 * recently practised first (the home page's continue cards). Three queries whatever the count.
 */
export async function listContinueExercises(
  db: Kysely<DB>,
  userId: string,
  limit = 6,
): Promise<ContinueExercisesCard[]> {
  const started = await db
    .selectFrom('question_progress')
    .innerJoin('studies', 'studies.id', 'question_progress.study_id')
    .innerJoin('users', 'users.id', 'studies.owner_id')
    .select(({ fn }) => [
      'studies.id',
      'studies.title',
      'users.username',
      fn.max('question_progress.last_attempt_at').as('last_attempt_at'),
    ])
    .where('question_progress.user_id', '=', userId)
    .where('studies.status', '=', 'published')
    .where('studies.hidden_at', 'is', null)
    .groupBy(['studies.id', 'studies.title', 'users.username'])
    .orderBy('last_attempt_at', 'desc')
    // Finished sets are dropped below; read a few more so that `limit` unfinished remain.
    .limit(limit * 4)
    .execute()
  if (started.length === 0) return []
  const studyIds = started.map((study) => study.id)
  const [questions, solved] = await Promise.all([
    db
      .selectFrom('questions')
      .select(['id', 'study_id'])
      .where('study_id', 'in', studyIds)
      .orderBy('position')
      .execute(),
    db
      .selectFrom('question_progress')
      .select('question_id')
      .where('user_id', '=', userId)
      .where('study_id', 'in', studyIds)
      .where('solved_at', 'is not', null)
      .execute(),
  ])
  const solvedIds = new Set(solved.map((row) => row.question_id))
  const cards: ContinueExercisesCard[] = []
  for (const study of started) {
    const ofStudy = questions.filter((question) => question.study_id === study.id)
    const next = ofStudy.find((question) => !solvedIds.has(question.id))
    if (!next) continue
    const path = exercisesPath(study.username, study.id)
    cards.push({
      study: { id: study.id, title: study.title, path },
      solved: ofStudy.filter((question) => solvedIds.has(question.id)).length,
      total: ofStudy.length,
      nextPath: `${path}#question-${next.id}`,
      lastPractisedAt: Number(study.last_attempt_at),
    })
    if (cards.length === limit) break
  }
  return cards
}
