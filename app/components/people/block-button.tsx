import { useEffect, useState } from 'react'
import { useConfirm } from '#app/components/confirm-dialog.tsx'
import { callApi } from '#app/lib/api/client.ts'
import { useCurrentUser, useSettings } from '#app/lib/root-data.ts'

/**
 * Block or unblock a profile's user (signed in, not oneself). Blocking is quiet: the other user
 * is not told; their messages stop reaching the blocker and follows and comments between the
 * two stop. Whether the viewer blocks them is asked from /api, since the profile is shared.
 */
export function BlockButton({ username }: { username: string }) {
  const user = useCurrentUser()
  const { apiGatewayUrl } = useSettings()
  const [blocked, setBlocked] = useState<boolean | undefined>(undefined)
  const [error, setError] = useState<string | null>(null)
  const shown = user !== null && user.username !== username
  const [confirm, confirmDialog] = useConfirm()

  useEffect(() => {
    if (!shown) return
    let cancelled = false
    callApi(apiGatewayUrl, 'people.blockState', { params: { username } }).then(
      (state) => {
        if (!cancelled) setBlocked(state.blocked)
      },
      () => {},
    )
    return () => {
      cancelled = true
    }
  }, [shown, apiGatewayUrl, username])

  if (!shown || blocked === undefined) return null

  async function toggle() {
    if (
      !blocked &&
      !(await confirm({
        title: 'このユーザーをブロックしますか？',
        body: 'メッセージ・フォロー・コメントが届かなくなります（相手には知らされません）。',
        confirmLabel: 'ブロックする',
      }))
    ) {
      return
    }
    try {
      const person = { params: { username } }
      const state = await (blocked
        ? callApi(apiGatewayUrl, 'people.unblock', person)
        : callApi(apiGatewayUrl, 'people.block', person))
      setBlocked(state.blocked)
      setError(null)
    } catch {
      setError('ブロックの設定を変更できませんでした。')
    }
  }

  return (
    <span className="inline-flex flex-col">
      {confirmDialog}
      <button
        type="button"
        aria-pressed={blocked}
        onClick={() => void toggle()}
        className="inline-flex min-h-10 items-center rounded-lg px-3 text-sm text-slate-700 underline hover:no-underline dark:text-slate-300"
        data-block-button
      >
        {blocked ? 'ブロック中（解除する）' : 'ブロック'}
      </button>
      {error && (
        <span role="alert" className="text-xs text-red-700 dark:text-red-300">
          {error}
        </span>
      )}
    </span>
  )
}
