import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { CourseAccess, DB } from '#db/schema.ts'
import { type Actor, mayEdit } from '#features/actor.ts'
import { includesPremiumNow } from './subscription-state.ts'

export type Plan = 'free' | 'premium'

/**
 * The learner's plan: the ONE place premium locks read it from, from their subscription's state
 * (features/plans/subscription-state.ts): premium while paid, to the end of a canceled period,
 * and through the grace of a failing renewal.
 */
export async function currentPlan(
  db: Kysely<DB>,
  userId: string | undefined,
  now = Date.now(),
): Promise<Plan> {
  if (!userId) return 'free'
  const row = await db
    .selectFrom('subscriptions')
    .select(['status', 'plan_id', 'current_period_start', 'current_period_end', 'past_due_since'])
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (!row) return 'free'
  const state = {
    status: row.status,
    planId: row.plan_id,
    nextPlanId: null,
    currentPeriodStart: Number(row.current_period_start),
    currentPeriodEnd: Number(row.current_period_end),
    pastDueSince: row.past_due_since === null ? null : Number(row.past_due_since),
  }
  return includesPremiumNow(state, now) ? 'premium' : 'free'
}

/** Who is reading premium content: the viewer (undefined for a guest) and their plan. */
export type PremiumReader = { viewer: Actor | undefined; plan: Plan }

/** The reader of a request, with the plan read once. */
export async function premiumReader(
  db: Kysely<DB>,
  viewer: Actor | undefined,
  now = Date.now(),
): Promise<PremiumReader> {
  return { viewer, plan: await currentPlan(db, viewer?.userId, now) }
}

/** Premium content is included in the premium plan and for its owner and admins (who edit it). */
export function includesPremium(reader: PremiumReader, ownerId: string): boolean {
  return reader.plan === 'premium' || mayEdit(reader.viewer, ownerId)
}

/**
 * THE read rule for a lesson's body: a lesson is premium when it or its course is, and a
 * premium lesson is locked (title only) for readers whose plan does not include it. The lesson
 * page, the course outline, search and every summary of a body follow this, here or in SQL
 * through `lessonBodyReadableSql`, which says the same and is tested against it.
 */
export function lessonLocked(
  reader: PremiumReader,
  lesson: { courseAccess: CourseAccess; lessonAccess: CourseAccess; ownerId: string },
): boolean {
  const premium = lesson.courseAccess === 'premium' || lesson.lessonAccess === 'premium'
  return premium && !includesPremium(reader, lesson.ownerId)
}

/**
 * `lessonLocked` negated, as a SQL condition over the columns of a query that joins a lesson
 * with its course (column references, e.g. `{ courseAccess: 'c.access', … }`), so that a
 * query never matches or returns a body its reader may not read.
 */
export function lessonBodyReadableSql(
  reader: PremiumReader,
  columns: { courseAccess: string; lessonAccess: string; ownerId: string },
): RawBuilder<boolean> {
  if (reader.plan === 'premium' || reader.viewer?.isAdmin) return sql<boolean>`1 = 1`
  const free = sql<boolean>`(${sql.ref(columns.courseAccess)} <> 'premium' and ${sql.ref(columns.lessonAccess)} <> 'premium')`
  return reader.viewer
    ? sql<boolean>`(${free} or ${sql.ref(columns.ownerId)} = ${reader.viewer.userId})`
    : free
}
