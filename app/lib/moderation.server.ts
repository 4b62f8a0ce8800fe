import type { AppContext } from '#app/load-context.ts'
import { type Moderator, moderatorOf } from '#features/moderation/moderation.server.ts'
import { requireAdmin } from './admin.server.ts'

/** The admin behind a moderation page's request, as the log records them (requireAdmin first). */
export async function requireModerator(context: AppContext, request: Request): Promise<Moderator> {
  const user = await requireAdmin(context, request)
  return (
    (await moderatorOf(context.db, { userId: user.sub, isAdmin: true })) ?? {
      userId: user.sub,
      isAdmin: true,
      username: user.username,
    }
  )
}
