import { findProfile } from '../../features/users/profiles.server.ts'
import type { Route } from './+types/content-detail'

/**
 * Detail pages of labs and lab stories. Until the content feature stores such
 * items, no id can name one, so every address is answered with the 404 error page.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  const author = await findProfile(context.db, params.user)
  throw new Response(author ? 'Content Not Found' : 'User Not Found', { status: 404 })
}

// Never rendered (the loader always throws), but its presence makes this a page route, so
// the 404 is shown with the error page rather than sent as bare text.
export default function ContentDetail() {
  return null
}
