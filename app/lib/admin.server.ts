import { data, redirect } from 'react-router'
import type { AppContext } from '#app/load-context.ts'
import type { SignedInUser } from '#server/web-session/reader.ts'
import { query } from './query-string.ts'

/**
 * The admin area's gate (every /admin loader and action calls it: a layout's loader alone
 * would not guard its children's, which run beside it). A guest is sent to sign in and back;
 * a signed-in user outside the user pool's `admin` group gets the site's 403 page.
 */
export async function requireAdmin(context: AppContext, request: Request): Promise<SignedInUser> {
  const user = await context.auth.currentUser(request)
  const url = new URL(request.url)
  if (!user) throw redirect(`/auth/signin${query({ redirectTo: `${url.pathname}${url.search}` })}`)
  if (!user.groups.includes('admin')) {
    throw data('このページは管理者だけが見られます', {
      status: 403,
      statusText: 'このページは管理者だけが見られます',
    })
  }
  return user
}

/** Admin pages are per viewer and never kept by any cache. */
export const ADMIN_HEADERS = { 'Cache-Control': 'private, no-store' }
