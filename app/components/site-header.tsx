import { Bell, Menu, MessageCircle, PenLine, Search } from 'lucide-react'
import type { MouseEvent, ReactNode } from 'react'
import { Form, Link, NavLink } from 'react-router'
import type { CurrentUser } from '#app/lib/root-data.ts'
import { profilePath } from '#features/content-kinds.ts'
import { Avatar } from './avatar.tsx'
import { useLiveUnreadCount } from './live-unread-count.ts'
import { useLiveUnreadMessages } from './messages/live-unread-messages.ts'
import { createLinks, MAIN_SECTIONS, MY_SECTIONS } from './navigation.ts'
import { SearchBox } from './search-box.tsx'

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `whitespace-nowrap rounded-md px-2 py-2 text-sm font-medium hover:bg-slate-100 xl:px-3 dark:hover:bg-slate-800 ${
    isActive ? 'text-brand-600 dark:text-brand-100' : 'text-slate-700 dark:text-slate-300'
  }`

/** A `<details>` menu closes once one of its links is chosen (client navigation keeps it open). */
function closeMenu(event: MouseEvent<HTMLElement>) {
  if ((event.target as HTMLElement).closest('a')) {
    event.currentTarget.closest('details')?.removeAttribute('open')
  }
}

/** A header menu: a `<details>` whose summary opens a panel of links below it, at the right. */
function HeaderMenu(props: {
  summary: ReactNode
  summaryClassName: string
  summaryLabel?: string
  label: string
  width: string
  className?: string
  data?: Record<`data-${string}`, string>
  children: ReactNode
}) {
  return (
    <details className={`relative ${props.className ?? ''}`} {...props.data}>
      <summary
        className={`cursor-pointer list-none ${props.summaryClassName}`}
        aria-label={props.summaryLabel}
      >
        {props.summary}
      </summary>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: only closes the menu after a link was followed */}
      <nav
        aria-label={props.label}
        onClick={closeMenu}
        className={`absolute right-0 z-50 mt-2 ${props.width} rounded-lg border border-slate-200 bg-white p-2 shadow-lg dark:border-slate-700 dark:bg-slate-900`}
      >
        {props.children}
      </nav>
    </details>
  )
}

export function accountLinks(user: Pick<CurrentUser, 'username' | 'groups'>) {
  return [
    { to: profilePath(user.username), label: 'マイページ' },
    { to: '/settings', label: '設定' },
    // The admin pages are reached from here only by those who may open them.
    ...(user.groups.includes('admin') ? [{ to: '/admin', label: '管理画面' }] : []),
  ]
}

const iconButtonClass =
  'grid size-10 shrink-0 place-items-center rounded-md hover:bg-slate-100 dark:hover:bg-slate-800'

/**
 * The site's bar, one 64 px row at every width: the sections' links from 1280 px (the menu
 * below that), the search box from 768 px (a link to the search page below), and nothing in
 * it wraps: each item keeps its text on one line and only the site title may be cut short.
 */
export function SiteHeader({ siteTitle, user }: { siteTitle?: string; user: CurrentUser | null }) {
  const title = siteTitle ?? 'テックラボ'
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2 dark:focus:bg-slate-900"
      >
        本文へスキップ
      </a>
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-2 px-4 lg:gap-3">
        {/* Named by its text, which phones hide from sight but not from screen readers. */}
        <Link to="/" className="flex min-w-0 items-center gap-2 font-bold" data-header-item>
          <span
            className="grid size-8 shrink-0 place-items-center rounded-lg bg-brand-600 text-sm text-white"
            aria-hidden="true"
          >
            TL
          </span>
          <span className="hidden truncate whitespace-nowrap sm:inline xl:max-w-40">{title}</span>
          <span className="sr-only sm:hidden">{title}</span>
        </Link>
        <nav aria-label="メインメニュー" className="hidden shrink-0 xl:block" data-header-item>
          <ul className="flex items-center gap-0.5">
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
          placeholder="キーワード"
          className="ml-auto hidden w-56 shrink-0 md:block xl:w-48"
        />
        <div className="ml-auto flex shrink-0 items-center gap-1 md:ml-0" data-header-item>
          <Link to="/search" className={`${iconButtonClass} md:hidden`}>
            <Search aria-hidden="true" className="size-5" />
            <span className="sr-only">検索</span>
          </Link>
          {user ? (
            <>
              <CreateMenu username={user.username} />
              <MessagesLink unread={user.unreadMessages} />
              <NotificationsLink unread={user.unreadNotifications} />
              <UserMenu user={user} />
            </>
          ) : (
            <>
              <Link
                to="/auth/signin"
                className="hidden whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium hover:bg-slate-100 sm:inline-block dark:hover:bg-slate-800"
              >
                ログイン
              </Link>
              <Link
                to="/auth/signup"
                className="whitespace-nowrap rounded-md bg-brand-600 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-700"
              >
                無料で始める
              </Link>
            </>
          )}
          <HeaderMenu
            className="xl:hidden"
            summary={<Menu aria-hidden="true" className="size-5" />}
            summaryClassName={iconButtonClass}
            summaryLabel="メニューを開く"
            label="メニュー"
            width="w-56"
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
                  <NavLink to="/auth/signin" className={(state) => `block ${navLinkClass(state)}`}>
                    ログイン
                  </NavLink>
                </li>
              )}
            </ul>
          </HeaderMenu>
        </div>
      </div>
    </header>
  )
}

/** 「投稿する」: the create pages of every kind of writing, under the user's own name. */
function CreateMenu({ username }: { username: string }) {
  return (
    <HeaderMenu
      data={{ 'data-create-menu': '' }}
      summary={
        <>
          <PenLine aria-hidden="true" className="size-5 sm:size-4" />
          <span className="sr-only sm:not-sr-only">投稿する</span>
        </>
      }
      summaryClassName="flex h-10 items-center gap-1.5 whitespace-nowrap rounded-md px-2 text-sm font-medium hover:bg-slate-100 sm:px-3 dark:hover:bg-slate-800"
      label="投稿する"
      width="w-64"
    >
      <ul>
        {createLinks(username).map((link) => (
          <li key={link.to}>
            <Link
              to={link.to}
              className="block rounded-md px-3 py-2 hover:bg-slate-100 dark:hover:bg-slate-800"
            >
              <span className="block text-sm font-medium">{link.label}</span>
              <span className="block text-xs text-slate-600 dark:text-slate-400">
                {link.description}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </HeaderMenu>
  )
}

/** Direct messages (/dms), with the number of messages not read yet (updated live). */
function MessagesLink({ unread }: { unread: number }) {
  return (
    <CountLink
      to="/dms"
      icon={<MessageCircle aria-hidden="true" className="size-5" />}
      label="メッセージ"
      unread={useLiveUnreadMessages(unread)}
      badgeTestId="unread-messages-badge"
    />
  )
}

/** The bell: the user's notifications, with the number not seen yet (updated live). */
function NotificationsLink({ unread }: { unread: number }) {
  return (
    <CountLink
      to="/notifications"
      icon={<Bell aria-hidden="true" className="size-5" />}
      label="通知"
      unread={useLiveUnreadCount(unread)}
      badgeTestId="unread-badge"
    />
  )
}

/** An icon link of the header with a count of what is unread there. */
function CountLink(props: {
  to: string
  icon: ReactNode
  label: string
  unread: number
  badgeTestId: string
}) {
  const { unread } = props
  return (
    // Named by its text rather than aria-label: axe (label-content-name-mismatch) wants the
    // visible count inside the name, which 「通知（未読 3 件）」 has.
    <Link to={props.to} className={`relative ${iconButtonClass}`}>
      {props.icon}
      <span className="sr-only">
        {unread > 0 ? `${props.label}（未読 ${unread} 件）` : props.label}
      </span>
      {unread > 0 && (
        <span
          data-testid={props.badgeTestId}
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
    <HeaderMenu
      data={{ 'data-user-menu': '' }}
      summary={
        <span aria-hidden="true">
          <Avatar name={user.displayName} url={user.avatarUrl} size="small" />
        </span>
      }
      summaryClassName="flex items-center rounded-full p-1 hover:bg-slate-100 dark:hover:bg-slate-800"
      summaryLabel="アカウントメニュー"
      label="アカウント"
      width="w-60"
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
        <li>
          {/* One step: the sign-out page's own action signs out here and shows the result. */}
          <Form method="post" action="/auth/signout">
            <button
              type="submit"
              className={`block w-full text-left ${navLinkClass({ isActive: false })}`}
            >
              ログアウト
            </button>
          </Form>
        </li>
      </ul>
    </HeaderMenu>
  )
}
