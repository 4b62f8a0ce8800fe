import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { ApiRequestError, callApi } from '#app/lib/api/client.ts'
import { query } from '#app/lib/query-string.ts'
import { useCurrentUser, useSettings } from '#app/lib/root-data.ts'
import { profilePath } from '#features/content-kinds.ts'
import type { FollowState } from '#features/follows/follow-views.ts'

const buttonClass =
  'inline-flex min-h-10 items-center rounded-lg px-4 text-sm font-semibold transition-colors'

/**
 * Follow or unfollow a profile. The profile page is shared by every guest (decision 005), so
 * whether the viewer follows is asked from /api after the page loads; counts the server
 * answers replace the page's own.
 */
export function FollowButton(props: { username: string; onChange(state: FollowState): void }) {
  const user = useCurrentUser()
  const { apiGatewayUrl } = useSettings()
  const [following, setFollowing] = useState<boolean | undefined>(undefined)
  const [pending, setPending] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const { username, onChange } = props
  const isSelf = user?.username === username

  useEffect(() => {
    if (!user || isSelf) return
    let cancelled = false
    callApi(apiGatewayUrl, 'people.followState', { params: { username } }).then(
      (state) => {
        if (cancelled) return
        setFollowing(state.following)
        onChange(state)
      },
      () => {
        if (!cancelled) setError('フォローの状態を読み込めませんでした。')
      },
    )
    return () => {
      cancelled = true
    }
  }, [user, isSelf, apiGatewayUrl, username, onChange])

  if (!user) {
    return (
      <Link
        to={`/auth/signin${query({ redirectTo: profilePath(username) })}`}
        className={`${buttonClass} bg-brand-600 text-white hover:bg-brand-700`}
      >
        フォローする
      </Link>
    )
  }
  if (isSelf) {
    return (
      <Link
        to="/settings#profile"
        className={`${buttonClass} border border-slate-300 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800`}
      >
        プロフィールを編集
      </Link>
    )
  }

  async function toggle() {
    if (following === undefined || pending) return
    setPending(true)
    setError(null)
    try {
      const person = { params: { username } }
      const state = await (following
        ? callApi(apiGatewayUrl, 'people.unfollow', person)
        : callApi(apiGatewayUrl, 'people.follow', person))
      setFollowing(state.following)
      onChange(state)
    } catch (caught) {
      // Another tab already did it: show where things stand now.
      if (caught instanceof ApiRequestError && caught.status === 409) {
        const state = await callApi(apiGatewayUrl, 'people.followState', {
          params: { username },
        })
        setFollowing(state.following)
        onChange(state)
      } else {
        setError(
          caught instanceof ApiRequestError
            ? caught.message
            : 'フォローを変更できませんでした。通信環境を確認して、もう一度お試しください。',
        )
      }
    } finally {
      setPending(false)
    }
  }

  return (
    <div className="flex flex-col items-start gap-1">
      <button
        type="button"
        onClick={() => void toggle()}
        aria-pressed={following ?? false}
        aria-disabled={following === undefined || pending || undefined}
        data-state={following === undefined ? 'loading' : following ? 'following' : 'not-following'}
        className={`${buttonClass} aria-disabled:opacity-70 ${
          following
            ? 'border border-slate-300 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800'
            : 'bg-brand-600 text-white hover:bg-brand-700'
        }`}
      >
        {following ? 'フォロー中' : 'フォローする'}
      </button>
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </div>
  )
}
