import { NavLink, Outlet } from 'react-router'
import { findProfile } from '../../../features/users/profiles.server.ts'
import { publicPageHeaders } from '../../lib/cache-control.ts'
import { formatDate } from '../../lib/format.ts'
import type { Route } from './+types/layout'

export const headers = publicPageHeaders

export async function loader({ context, params }: Route.LoaderArgs) {
  const profile = await findProfile(context.db, params.user)
  if (!profile) throw new Response('Not Found', { status: 404 })
  return { profile }
}

const tabClass = ({ isActive }: { isActive: boolean }) =>
  `inline-block border-b-2 px-3 py-2 text-sm ${
    isActive
      ? 'border-brand-600 font-semibold text-brand-700 dark:text-brand-100'
      : 'border-transparent text-slate-600 hover:border-slate-300 dark:text-slate-400'
  }`

export default function ProfileLayout({ loaderData: { profile } }: Route.ComponentProps) {
  const base = `/${profile.username}`
  const tabs = [
    { to: base, label: '概要', end: true },
    { to: `${base}/studies`, label: 'スタディ' },
    { to: `${base}/labs`, label: 'ラボ' },
    { to: `${base}/labs_stories`, label: 'ストーリー' },
    { to: `${base}/followers`, label: 'フォロワー' },
    { to: `${base}/following`, label: 'フォロー中' },
  ]
  return (
    <div className="mx-auto max-w-4xl">
      <header className="flex items-start gap-4">
        <div
          className="grid size-16 shrink-0 place-items-center rounded-full bg-brand-100 text-2xl font-bold text-brand-700 dark:bg-slate-800 dark:text-brand-100"
          aria-hidden="true"
        >
          {profile.displayName.slice(0, 1)}
        </div>
        <div>
          <h1 className="text-2xl font-bold">{profile.displayName}</h1>
          <p className="text-sm text-slate-500 dark:text-slate-400">
            @{profile.username}・{formatDate(profile.joinedAt)} から参加
          </p>
          {profile.bio && <p className="mt-3 text-slate-700 dark:text-slate-300">{profile.bio}</p>}
        </div>
      </header>
      <nav
        aria-label="プロフィールのタブ"
        className="mt-8 overflow-x-auto border-b border-slate-200 dark:border-slate-800"
      >
        <ul className="flex whitespace-nowrap">
          {tabs.map((tab) => (
            <li key={tab.to}>
              <NavLink to={tab.to} end={tab.end} className={tabClass} preventScrollReset>
                {tab.label}
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
