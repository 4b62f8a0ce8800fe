import type { Kysely } from 'kysely'
import type { DB } from '../../db/schema.ts'

export type Plan = 'free' | 'premium'

/**
 * The learner's plan: the ONE place premium locks read it from. Subscriptions arrive with
 * the plans issue, which fills this in; until then every learner is on the free plan.
 */
export async function currentPlan(_db: Kysely<DB>, _userId: string | undefined): Promise<Plan> {
  return 'free'
}
