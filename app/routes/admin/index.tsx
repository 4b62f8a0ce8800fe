import { redirect } from 'react-router'
import { requireAdmin } from '#app/lib/admin.server.ts'
import type { Route } from './+types/index'

/** /admin opens on its first section. */
export async function loader({ context, request }: Route.LoaderArgs) {
  await requireAdmin(context, request)
  throw redirect('/admin/contact')
}
