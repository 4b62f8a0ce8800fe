import { NavLink, Outlet } from 'react-router'
import { ADMIN_HEADERS, requireAdmin } from '#app/lib/admin.server.ts'
import type { Route } from './+types/layout'

export function headers() {
  return ADMIN_HEADERS
}

export async function loader({ context, request }: Route.LoaderArgs) {
  await requireAdmin(context, request)
  return null
}

/** The admin area's sections. */
const ADMIN_SECTIONS = [
  { to: '/admin/contact', label: 'お問い合わせ' },
  { to: '/admin/reports', label: '報告' },
] as const

const tabClass = ({ isActive }: { isActive: boolean }) =>
  `inline-block rounded-md px-3 py-1.5 text-sm ${
    isActive
      ? 'bg-brand-50 font-semibold text-brand-700 dark:bg-slate-800 dark:text-brand-100'
      : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'
  }`

/** The admin area: its own heading and section tabs above each admin page. */
export default function AdminLayout() {
  return (
    <div>
      <p className="text-sm font-semibold text-slate-500 dark:text-slate-400">管理</p>
      <nav
        aria-label="管理メニュー"
        className="mt-2 border-b border-slate-200 pb-2 dark:border-slate-700"
      >
        <ul className="flex flex-wrap gap-2">
          {ADMIN_SECTIONS.map((section) => (
            <li key={section.to}>
              <NavLink to={section.to} className={tabClass}>
                {section.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-6">
        <Outlet />
      </div>
    </div>
  )
}
