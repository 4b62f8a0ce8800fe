import { type Kysely, sql } from 'kysely'
import type { ContentKind, DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { ContentError } from '#features/content-error.ts'
import { CONTENT_KINDS, contentPath, exercisesPath } from '#features/content-kinds.ts'
import type { HistoryEntry, HistorySummary } from '#features/history/history-views.ts'
import { afterCursor } from '#features/pagination.server.ts'
import { type Page, type PageQuery, pageFrom } from '#features/pagination.ts'
import { DEFAULT_TIME_ZONE } from '#features/users/profile-input.ts'
import { addDays, heatmapWeeks, localDay, streaksOf, weekdayOf } from './learning-days.ts'

export type { HistoryEntry, HistorySummary }

function signedIn(actor: Actor | undefined): Actor {
  if (!actor) throw ContentError.signInRequired()
  return actor
}

async function timeZoneOf(db: Kysely<DB>, userId: string): Promise<string> {
  const row = await db
    .selectFrom('users')
    .select('time_zone')
    .where('id', '=', userId)
    .executeTakeFirst()
  return row?.time_zone || DEFAULT_TIME_ZONE
}

/**
 * Streaks, totals and the heatmap of the signed-in learner, in their time zone. Every event's
 * instant is read (a learner has thousands at most): days depend on the zone, which SQL on
 * both engines cannot group by portably.
 */
export async function readHistorySummary(
  db: Kysely<DB>,
  actor: Actor | undefined,
  now = Date.now(),
): Promise<HistorySummary> {
  const { userId } = signedIn(actor)
  const timeZone = await timeZoneOf(db, userId)
  const events = await db
    .selectFrom('history_events')
    .select(['kind', 'at'])
    .where('user_id', '=', userId)
    .execute()
  const countsByDay = new Map<string, number>()
  for (const event of events) {
    const day = localDay(Number(event.at), timeZone)
    countsByDay.set(day, (countsByDay.get(day) ?? 0) + 1)
  }
  const today = localDay(now, timeZone)
  return {
    timeZone,
    today,
    streaks: streaksOf(countsByDay.keys(), today),
    totals: {
      events: events.length,
      lessonsDone: events.filter((event) => event.kind === 'lesson_done').length,
      published: events.filter((event) => event.kind === 'published').length,
      exercisesSolved: events.filter((event) => event.kind === 'exercise_solved').length,
      activeDays: countsByDay.size,
    },
    heatmap: heatmapWeeks(countsByDay, today),
  }
}

/** Learning on any day counts toward its goal: a lesson done, a question solved, a publication. */
export const DAILY_GOAL = 1

export type LearningWeek = {
  today: string
  /** Days in a row with learning, up to today (or yesterday, while today is still open). */
  streak: number
  /** Sunday to Saturday of this week; days still to come have no count. */
  days: { day: string; count: number | null }[]
  goal: { target: number; done: number }
}

/**
 * The signed-in home's week: the history's streak and the heatmap's row for this week (the
 * same events, read the same way as /histories), and how far today's goal is.
 */
export async function readLearningWeek(
  db: Kysely<DB>,
  actor: Actor | undefined,
  now = Date.now(),
): Promise<LearningWeek> {
  const summary = await readHistorySummary(db, actor, now)
  const thisWeek = summary.heatmap.at(-1) ?? []
  const first = addDays(summary.today, -weekdayOf(summary.today))
  const days = Array.from({ length: 7 }, (_, index) => {
    const day = addDays(first, index)
    return { day, count: thisWeek.find((cell) => cell.day === day)?.count ?? null }
  })
  const today = days.find((cell) => cell.day === summary.today)?.count ?? 0
  return {
    today: summary.today,
    streak: summary.streaks.current,
    days,
    goal: { target: DAILY_GOAL, done: Math.min(today, DAILY_GOAL) },
  }
}

type Subject = NonNullable<HistoryEntry['subject']>

/**
 * Titles and paths of the events' subjects that still exist and the learner may still see
 * (published and not hidden by moderation, or their own), by subject id: the others' entries
 * keep their kind and time but quote nothing.
 */
async function subjectsOf(
  db: Kysely<DB>,
  userId: string,
  events: readonly { subject_kind: HistoryEntry['subjectKind']; subject_id: string }[],
): Promise<Map<string, Subject>> {
  // One condition for every publishable table, which all name these columns alike.
  const shown = (table: 'courses' | 'studies') =>
    sql<boolean>`((${sql.ref(`${table}.status`)} = 'published' and ${sql.ref(`${table}.hidden_at`)} is null) or ${sql.ref(`${table}.owner_id`)} = ${userId})`
  const subjects = new Map<string, Subject>()
  const idsOf = (kind: HistoryEntry['subjectKind']) =>
    events.filter((event) => event.subject_kind === kind).map((event) => event.subject_id)
  const lessonIds = idsOf('lesson')
  if (lessonIds.length > 0) {
    const lessons = await db
      .selectFrom('lessons')
      .innerJoin('courses', 'courses.id', 'lessons.course_id')
      .innerJoin('users', 'users.id', 'courses.owner_id')
      .select([
        'lessons.id',
        'lessons.title',
        'courses.id as course_id',
        'courses.title as course_title',
        'users.username',
      ])
      .where('lessons.id', 'in', lessonIds)
      .where(shown('courses'))
      .execute()
    for (const lesson of lessons) {
      subjects.set(lesson.id, {
        title: lesson.title,
        courseTitle: lesson.course_title,
        path: `/${lesson.username}/courses/${lesson.course_id}/lessons/${lesson.id}`,
      })
    }
  }
  const questionIds = idsOf('question')
  if (questionIds.length > 0) {
    const questions = await db
      .selectFrom('questions')
      .innerJoin('studies', 'studies.id', 'questions.study_id')
      .innerJoin('users', 'users.id', 'studies.owner_id')
      .select([
        'questions.id',
        'questions.position',
        'studies.id as study_id',
        'studies.title as study_title',
        'users.username',
      ])
      .where('questions.id', 'in', questionIds)
      .where(shown('studies'))
      .execute()
    for (const question of questions) {
      subjects.set(question.id, {
        title: `${question.study_title} の問題 ${question.position + 1}`,
        path: `${exercisesPath(question.username, question.study_id)}#question-${question.id}`,
      })
    }
  }
  for (const kind of Object.keys(CONTENT_KINDS) as ContentKind[]) {
    // Every publishable table has these columns; typed against one, named by its own name.
    const table = CONTENT_KINDS[kind].table as 'studies'
    const ids = idsOf(kind)
    if (ids.length === 0) continue
    const rows = await db
      .selectFrom(table)
      .innerJoin('users', 'users.id', `${table}.owner_id`)
      .select([`${table}.id as id`, `${table}.title as title`, 'users.username'])
      .where(`${table}.id`, 'in', ids)
      .where(shown(table))
      .execute()
    for (const row of rows) {
      subjects.set(row.id, { title: row.title, path: contentPath(kind, row.username, row.id) })
    }
  }
  return subjects
}

/** The signed-in learner's timeline, newest first, a page at a time. */
export async function listHistory(
  db: Kysely<DB>,
  actor: Actor | undefined,
  { cursor, limit }: PageQuery,
): Promise<Page<HistoryEntry>> {
  const { userId } = signedIn(actor)
  let query = db
    .selectFrom('history_events')
    .select(['id', 'kind', 'subject_kind', 'subject_id', 'at'])
    .where('user_id', '=', userId)
  if (cursor) query = query.where(afterCursor(cursor, 'at', 'id'))
  const rows = await query
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute()
  const subjects = await subjectsOf(db, userId, rows)
  const entries = rows.map(
    (row): HistoryEntry => ({
      id: row.id,
      kind: row.kind,
      subjectKind: row.subject_kind,
      at: Number(row.at),
      subject: subjects.get(row.subject_id) ?? null,
    }),
  )
  return pageFrom(entries, limit, (entry) => ({ at: entry.at, id: entry.id }))
}
