import type { MouseEvent } from 'react'
import { Link, NavLink } from 'react-router'
import type { CurrentUser } from '../lib/root-data.ts'
import { Avatar } from './avatar.tsx'
import { MAIN_SECTIONS, MY_SECTIONS } from './navigation.ts'
import { SearchBox } from './search-results.tsx'

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium hover:bg-slate-100 dark:hover:bg-slate-800 ${
    isActive ? 'text-brand-600 dark:text-brand-100' : 'text-slate-700 dark:text-slate-300'
  }`

/** A `<details>` menu closes once one of its links is chosen (client navigation keeps it open). */
function closeMenu(event: MouseEvent<HTMLElement>) {
  if ((event.target as HTMLElement).closest('a')) {
    event.currentTarget.closest('details')?.removeAttribute('open')
  }
}

export function accountLinks(user: Pick<CurrentUser, 'username'>) {
  return [
    { to: `/${user.username}`, label: 'マイページ' },
    { to: '/settings', label: '設定' },
    { to: '/auth/signout', label: 'ログアウト' },
  ]
}

export function SiteHeader({ siteTitle, user }: { siteTitle?: string; user: CurrentUser | null }) {
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
        <SearchBox
          action="/search"
          label="サイト内を検索"
          className="ml-auto hidden w-56 md:block xl:w-72"
        />
        <div className="ml-auto flex items-center gap-2 md:ml-0">
          {user ? (
            <>
              <NotificationsLink unread={user.unreadNotifications} />
              <UserMenu user={user} />
            </>
          ) : (
            <>
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
            </>
          )}
          <details className="relative lg:hidden">
            <summary
              className="cursor-pointer list-none rounded-md px-3 py-2 text-sm font-medium hover:bg-slate-100 dark:hover:bg-slate-800"
              aria-label="メニューを開く"
            >
              メニュー
            </summary>
            {/* biome-ignore lint/a11y/useKeyWithClickEvents: only closes the menu after a link was followed */}
            <nav
              aria-label="メニュー"
              onClick={closeMenu}
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
                {!user && (
                  <li>
                    <NavLink
                      to="/auth/signin"
                      className={(state) => `block ${navLinkClass(state)}`}
                    >
                      ログイン
                    </NavLink>
                  </li>
                )}
              </ul>
            </nav>
          </details>
        </div>
      </div>
    </header>
  )
}

/** The bell: the user's notifications, with the number not seen yet. */
function NotificationsLink({ unread }: { unread: number }) {
  return (
    <Link
      to="/notifications"
      aria-label={unread > 0 ? `通知（未読 ${unread} 件）` : '通知'}
      className="relative rounded-md px-2 py-2 text-lg hover:bg-slate-100 dark:hover:bg-slate-800"
    >
      <span aria-hidden="true">🔔</span>
      {unread > 0 && (
        <span
          data-testid="unread-badge"
          aria-hidden="true"
          className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-red-600 px-1 text-center text-xs font-bold leading-5 text-white"
        >
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </Link>
  )
}

function UserMenu({ user }: { user: CurrentUser }) {
  return (
    <details className="relative" data-user-menu>
      <summary
        className="flex cursor-pointer list-none items-center gap-2 rounded-full py-1 pr-1 pl-1 hover:bg-slate-100 sm:pr-3 dark:hover:bg-slate-800"
        aria-label={`アカウントメニュー（${user.displayName}）`}
      >
        <Avatar name={user.displayName} url={user.avatarUrl} size="small" />
        <span className="hidden max-w-40 truncate text-sm font-medium sm:inline">
          {user.displayName}
        </span>
      </summary>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: only closes the menu after a link was followed */}
      <nav
        aria-label="アカウント"
        onClick={closeMenu}
        className="absolute right-0 z-50 mt-2 w-60 rounded-lg border border-slate-200 bg-white p-2 shadow-lg dark:border-slate-700 dark:bg-slate-900"
      >
        <p className="border-b border-slate-200 px-3 pt-1 pb-2 dark:border-slate-700">
          <span className="block truncate text-sm font-semibold">{user.displayName}</span>
          <span className="block truncate text-xs text-slate-600 dark:text-slate-400">
            {`@${user.username}`}
          </span>
        </p>
        <ul className="mt-1">
          {accountLinks(user).map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} end className={(state) => `block ${navLinkClass(state)}`}>
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </details>
  )
}
