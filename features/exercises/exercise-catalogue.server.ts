import { type Kysely, sql } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { exercisesPath } from '#features/content-kinds.ts'
import { plainExcerpt } from '#features/markdown/excerpt.ts'
import { type Cursor, type Page, pageFrom } from '#features/pagination.ts'
import { exerciseLocked, premiumReader } from '#features/plans/plan.server.ts'
import { tagsOfItems } from '#features/tags/item-tags.server.ts'
import type { ExerciseQuery } from './exercise-query.ts'
import { statusOf } from './exercise-set.server.ts'
import type { ExerciseCard } from './question-views.ts'

export { type ExerciseQuery, exerciseQuery } from './exercise-query.ts'

// /exercises: every question of every published study, newest study first and each study's
// questions in their order. The cursor's `id` is the study's id and the question's position
// (three digits), so the keyset is (published_at desc, study id desc, position asc).

const POSITION_DIGITS = 3

function cursorOf(card: ExerciseCard): Cursor {
  return {
    at: card.publishedAt,
    id: `${card.study.id}${String(card.position).padStart(POSITION_DIGITS, '0')}`,
  }
}

/**
 * A page of published questions for `viewer` (undefined for a guest), narrowed by tag (the
 * question's or its study's), language, kind, difficulty and the viewer's status. Premium
 * questions are listed, locked by the plan rule (exerciseLocked): no excerpt of their prompt.
 */
export async function listExercises(
  db: Kysely<DB>,
  viewer: Actor | undefined,
  { cursor, limit, tag, language, kind, difficulty, status }: ExerciseQuery,
): Promise<Page<ExerciseCard>> {
  // Long by design: one query with one filter per search option, then the cards it answers.
  const userId = viewer?.userId ?? ''
  let query = db
    .selectFrom('questions')
    .innerJoin('studies', 'studies.id', 'questions.study_id')
    .innerJoin('users', 'users.id', 'studies.owner_id')
    .leftJoin('question_progress', (join) =>
      join
        .onRef('question_progress.question_id', '=', 'questions.id')
        .on('question_progress.user_id', '=', userId),
    )
    .select([
      'questions.id',
      'questions.kind',
      'questions.language',
      'questions.difficulty',
      'questions.access',
      'questions.prompt',
      'questions.position',
      'studies.id as study_id',
      'studies.title as study_title',
      'studies.owner_id',
      'studies.published_at',
      'users.username',
      'users.display_name',
      'question_progress.solved_at',
      'question_progress.user_id as progress_user',
    ])
    .where('studies.status', '=', 'published')
    .where('studies.hidden_at', 'is', null)
  if (language) query = query.where('questions.language', '=', language)
  if (kind) query = query.where('questions.kind', '=', kind)
  if (difficulty) query = query.where('questions.difficulty', '=', difficulty)
  if (status === 'not_started') query = query.where('question_progress.user_id', 'is', null)
  if (status === 'attempted') {
    query = query
      .where('question_progress.user_id', 'is not', null)
      .where('question_progress.solved_at', 'is', null)
  }
  if (status === 'solved') query = query.where('question_progress.solved_at', 'is not', null)
  if (tag) {
    // The question's own tags or its study's.
    const tagged = (
      table: 'question_tags' | 'study_tags',
      subject: 'questions.id' | 'studies.id',
    ) =>
      db
        .selectFrom(table as 'study_tags')
        .innerJoin('tags', 'tags.id', 'tag_id')
        .select('subject_id')
        .where('subject_id', '=', sql.ref<string>(subject))
        .where('tags.name', '=', tag)
    query = query.where(({ or, exists }) =>
      or([
        exists(tagged('question_tags', 'questions.id')),
        exists(tagged('study_tags', 'studies.id')),
      ]),
    )
  }
  if (cursor) {
    const studyId = cursor.id.slice(0, -POSITION_DIGITS)
    const position = Number(cursor.id.slice(-POSITION_DIGITS))
    query = query.where(
      sql<boolean>`(studies.published_at < ${cursor.at} or (studies.published_at = ${cursor.at} and (studies.id < ${studyId} or (studies.id = ${studyId} and questions.position > ${position}))))`,
    )
  }
  const rows = await query
    .orderBy('studies.published_at', 'desc')
    .orderBy('studies.id', 'desc')
    .orderBy('questions.position', 'asc')
    .limit(limit + 1)
    .execute()

  const [reader, tags] = await Promise.all([
    premiumReader(db, viewer),
    tagsOfItems(
      db,
      'question_tags',
      rows.map((row) => row.id),
    ),
  ])
  const cards = rows.map((row): ExerciseCard => {
    const locked = exerciseLocked(reader, { access: row.access, ownerId: row.owner_id })
    return {
      id: row.id,
      kind: row.kind,
      language: row.language,
      difficulty: row.difficulty,
      access: row.access,
      tags: tags.get(row.id) ?? [],
      locked,
      excerpt: locked ? null : plainExcerpt(row.prompt),
      status:
        row.progress_user === null
          ? 'not_started'
          : statusOf({ solved_at: row.solved_at === null ? null : Number(row.solved_at) }),
      position: row.position,
      study: {
        id: row.study_id,
        title: row.study_title,
        path: exercisesPath(row.username, row.study_id),
      },
      author: { username: row.username, displayName: row.display_name },
      publishedAt: Number(row.published_at),
    }
  })
  return pageFrom(cards, limit, cursorOf)
}

/** The tags of published questions, most used first: /exercises' tag filter offers these. */
export async function listExerciseTags(db: Kysely<DB>, limit = 30): Promise<string[]> {
  const rows = await db
    .selectFrom('question_tags')
    .innerJoin('tags', 'tags.id', 'question_tags.tag_id')
    .innerJoin('questions', 'questions.id', 'question_tags.subject_id')
    .innerJoin('studies', 'studies.id', 'questions.study_id')
    .where('studies.status', '=', 'published')
    .where('studies.hidden_at', 'is', null)
    .select(({ fn }) => ['tags.name', fn.countAll<number>().as('uses')])
    .groupBy('tags.name')
    .orderBy('uses', 'desc')
    .orderBy('tags.name')
    .limit(limit)
    .execute()
  return rows.map((row) => row.name)
}
