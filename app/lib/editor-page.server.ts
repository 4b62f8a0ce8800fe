import { type AppLoadContext, redirect } from 'react-router'
import { type Actor, actorOf } from '#features/actor.ts'
import { createPathOf, kindOfPath } from '#features/content-kinds.ts'

/**
 * Who opens an editor page and what for: a guest is sent to sign in first; `create` pages
 * are always the signed-in user's own (another user's name redirects to one's own).
 * `collection` is the kind's path segment, e.g. `studies`.
 */
export async function editorRequest(
  context: AppLoadContext,
  request: Request,
  params: { user: string; id?: string },
  collection: string,
): Promise<{ username: string; actor: Actor | undefined; id: string | undefined; path: string }> {
  const url = new URL(request.url)
  const path = url.pathname
  const user = await context.auth.requireUser(request)
  if (!params.id && params.user !== user.username) {
    throw redirect(`${createPathOf(kindOfPath(collection), user.username)}${url.search}`)
  }
  return { username: params.user, actor: actorOf(user), id: params.id, path }
}
