import { NavLink, Outlet } from 'react-router'
import { MAIN_SECTIONS, MY_SECTIONS } from '#app/components/navigation.ts'
import { SiteFooter } from '#app/components/site-footer.tsx'
import { SiteHeader } from '#app/components/site-header.tsx'
import { useCurrentUser, useSettings } from '#app/lib/root-data.ts'

const sideLinkClass = ({ isActive }: { isActive: boolean }) =>
  `block rounded-md px-3 py-1.5 text-sm ${
    isActive
      ? 'bg-brand-50 font-semibold text-brand-700 dark:bg-slate-800 dark:text-brand-100'
      : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'
  }`

/** The `general` layout: the app shell, with section navigation beside the page. */
export default function GeneralLayout() {
  const { siteTitle } = useSettings()
  const user = useCurrentUser()
  return (
    <div className="flex min-h-dvh flex-col">
      <SiteHeader siteTitle={siteTitle} user={user} />
      <div className="mx-auto flex w-full max-w-6xl flex-1 gap-8 px-4 py-8">
        <nav aria-label="サイドメニュー" className="hidden w-48 shrink-0 md:block">
          <p className="px-3 text-xs font-semibold text-slate-500 dark:text-slate-400">学ぶ</p>
          <ul className="mt-1 mb-6">
            {MAIN_SECTIONS.map((section) => (
              <li key={section.to}>
                <NavLink to={section.to} className={sideLinkClass} prefetch="intent">
                  {section.label}
                </NavLink>
              </li>
            ))}
          </ul>
          <p className="px-3 text-xs font-semibold text-slate-500 dark:text-slate-400">
            マイページ
          </p>
          <ul className="mt-1">
            {MY_SECTIONS.map((section) => (
              <li key={section.to}>
                <NavLink to={section.to} className={sideLinkClass}>
                  {section.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" className="min-w-0 flex-1">
          <Outlet />
        </main>
      </div>
      <SiteFooter siteTitle={siteTitle} />
    </div>
  )
}
