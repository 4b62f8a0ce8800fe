import { useCallback, useEffect, useRef, useState } from 'react'
import { NavLink, Outlet } from 'react-router'
import { Avatar } from '#app/components/avatar.tsx'
import { MessageButton } from '#app/components/messages/message-button.tsx'
import { ReportButton } from '#app/components/moderation/moderation-marks.tsx'
import { BlockButton } from '#app/components/people/block-button.tsx'
import { FollowButton } from '#app/components/people/follow-button.tsx'
import { publicPageHeaders } from '#app/lib/cache-control.ts'
import { contentForPage } from '#app/lib/content-response.server.ts'
import { formatDate } from '#app/lib/format.ts'
import { publicObjectUrl } from '#app/lib/storage/storage-settings.ts'
import { profilePath } from '#features/content-kinds.ts'
import type { FollowState } from '#features/follows/follows.server.ts'
import { readProfileHeader } from '#features/users/profiles.server.ts'
import type { Route } from './+types/layout'

/** Not found, forbidden or broken: said inside the layout, with the header still there. */
export { ContentErrorBoundary as ErrorBoundary } from '#app/components/error-page.tsx'

export const headers = publicPageHeaders

/** The same for every viewer (cached for guests); the follow button asks /api for the rest. */
export async function loader({ context, params }: Route.LoaderArgs) {
  const profile = await contentForPage(
    readProfileHeader(context.db, params.user),
    profilePath(params.user),
  )
  return {
    profile: {
      ...profile,
      avatarUrl: profile.avatarKey
        ? publicObjectUrl(context.storage.client, profile.avatarKey)
        : null,
    },
  }
}

const tabClass = ({ isActive }: { isActive: boolean }) =>
  // Six tabs fit one row on a 390 px phone; narrower screens scroll the row.
  `inline-block whitespace-nowrap border-b-2 px-1 py-2 text-[13px] sm:px-3 sm:text-sm ${
    isActive
      ? 'border-brand-600 font-semibold text-brand-700 dark:text-brand-100'
      : 'border-transparent text-slate-600 hover:border-slate-300 dark:text-slate-400'
  }`

export default function ProfileLayout({ loaderData: { profile } }: Route.ComponentProps) {
  const base = profilePath(profile.username)
  const tabList = useRef<HTMLUListElement>(null)
  useEffect(() => {
    const list = tabList.current
    const current = list?.querySelector<HTMLElement>('[aria-current="page"]')
    // The list is positioned, so the tab's offset is within it.
    if (list && current) list.scrollLeft = current.offsetLeft - 16
  }, [])
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
      <ProfileHeader key={profile.username} profile={profile} />
      {/* One row at every width: on a phone it scrolls sideways, opening at the chosen tab. */}
      <nav
        aria-label="プロフィールのタブ"
        className="mt-8 border-b border-slate-200 dark:border-slate-800"
      >
        <ul
          ref={tabList}
          className="relative flex justify-between overflow-x-auto [scrollbar-width:thin] sm:justify-start"
          data-profile-tabs
        >
          {tabs.map((tab) => (
            <li key={tab.to} className="shrink-0">
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

type Profile = Route.ComponentProps['loaderData']['profile']

/** Keyed by username, so the counts the follow button updates start afresh on each profile. */
function ProfileHeader({ profile }: { profile: Profile }) {
  const base = profilePath(profile.username)
  const [counts, setCounts] = useState(profile.counts)
  const onFollowChange = useCallback(
    (state: FollowState) =>
      setCounts((current) => ({
        ...current,
        followers: state.followers,
        followees: state.followees,
      })),
    [],
  )
  return (
    <header className="flex flex-col gap-4 sm:flex-row sm:items-start">
      <Avatar name={profile.displayName} url={profile.avatarUrl} size="large" />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div>
            <h1 className="text-2xl font-bold break-words">{profile.displayName}</h1>
            <p className="text-sm text-slate-500 dark:text-slate-400">
              @{profile.username}・{formatDate(profile.joinedAt)} から参加
            </p>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <MessageButton username={profile.username} />
            <FollowButton username={profile.username} onChange={onFollowChange} />
            <BlockButton username={profile.username} />
            <ReportButton kind="user" id={profile.username} ownerUsername={profile.username} />
          </div>
        </div>
        {profile.bio && (
          <p className="mt-3 whitespace-pre-line text-slate-700 dark:text-slate-300">
            {profile.bio}
          </p>
        )}
        {profile.links.length > 0 && (
          <ul aria-label="リンク" className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm">
            {profile.links.map((link) => (
              <li key={link} className="min-w-0">
                <a
                  href={link}
                  rel="nofollow noopener noreferrer ugc"
                  target="_blank"
                  className="break-all text-brand-600 hover:underline dark:text-sky-300"
                >
                  {link.replace(/^https?:\/\//, '')}
                </a>
              </li>
            ))}
          </ul>
        )}
        <ul aria-label="フォローと公開の数" className="mt-3 flex flex-wrap gap-x-5 gap-y-1 text-sm">
          <li>
            <NavLink to={`${base}/followers`} className="hover:underline">
              <strong data-count="followers">{counts.followers}</strong> フォロワー
            </NavLink>
          </li>
          <li>
            <NavLink to={`${base}/following`} className="hover:underline">
              <strong data-count="followees">{counts.followees}</strong> フォロー中
            </NavLink>
          </li>
          <li>
            <strong data-count="published">{counts.published}</strong> 件を公開
          </li>
        </ul>
      </div>
    </header>
  )
}
