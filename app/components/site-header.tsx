import { Link, NavLink } from 'react-router'
import { MAIN_SECTIONS, MY_SECTIONS } from './navigation.ts'

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium hover:bg-slate-100 dark:hover:bg-slate-800 ${
    isActive ? 'text-brand-600 dark:text-brand-100' : 'text-slate-700 dark:text-slate-300'
  }`

export function SiteHeader({ siteTitle }: { siteTitle?: string }) {
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2 dark:focus:bg-slate-900"
      >
        本文へスキップ
      </a>
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-4 px-4">
        <Link to="/" className="flex shrink-0 items-center gap-2 font-bold">
          <span
            className="grid size-8 place-items-center rounded-lg bg-brand-600 text-sm text-white"
            aria-hidden="true"
          >
            TL
          </span>
          <span className="hidden max-w-64 truncate sm:inline xl:max-w-none">
            {siteTitle ?? 'テックラボ'}
          </span>
        </Link>
        <nav aria-label="メインメニュー" className="hidden flex-1 lg:block">
          <ul className="flex items-center gap-1">
            {MAIN_SECTIONS.map((section) => (
              <li key={section.to}>
                <NavLink to={section.to} className={navLinkClass} prefetch="intent">
                  {section.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="ml-auto flex items-center gap-2">
          <Link
            to="/auth/signin"
            className="hidden rounded-md px-3 py-2 text-sm font-medium hover:bg-slate-100 sm:inline-block dark:hover:bg-slate-800"
          >
            ログイン
          </Link>
          <Link
            to="/auth/signup"
            className="rounded-md bg-brand-600 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-700"
          >
            無料で始める
          </Link>
          <details className="relative lg:hidden">
            <summary
              className="cursor-pointer list-none rounded-md px-3 py-2 text-sm font-medium hover:bg-slate-100 dark:hover:bg-slate-800"
              aria-label="メニューを開く"
            >
              メニュー
            </summary>
            <nav
              aria-label="メニュー"
              className="absolute right-0 mt-2 w-56 rounded-lg border border-slate-200 bg-white p-2 shadow-lg dark:border-slate-700 dark:bg-slate-900"
            >
              <ul>
                {[...MAIN_SECTIONS, ...MY_SECTIONS].map((section) => (
                  <li key={section.to}>
                    <NavLink to={section.to} className={(state) => `block ${navLinkClass(state)}`}>
                      {section.label}
                    </NavLink>
                  </li>
                ))}
                <li>
                  <NavLink to="/auth/signin" className={(state) => `block ${navLinkClass(state)}`}>
                    ログイン
                  </NavLink>
                </li>
              </ul>
            </nav>
          </details>
        </div>
      </div>
    </header>
  )
}
