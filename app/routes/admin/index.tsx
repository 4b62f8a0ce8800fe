import { redirect } from 'react-router'
import { requireAdmin } from '#app/lib/admin.server.ts'
import type { Route } from './+types/index'

/** /admin opens on its first section. */
export async function loader({ context, request }: Route.LoaderArgs) {
  await requireAdmin(context, request)
  throw redirect('/admin/contact')
}

/**
 * Never shown (the loader always redirects or refuses), but a route without a component is a
 * resource route, whose refusals would skip the error page and answer a bare 500.
 */
export default function AdminIndex() {
  return null
}
