import { Heart } from 'lucide-react'
import { useState } from 'react'
import { useSettings } from '#app/lib/root-data.ts'
import type { ContentKind } from '#db/schema.ts'
import type { LikeState } from '#features/social/likes.server.ts'
import { SignInLink } from './sign-in-link.tsx'
import { socialApi } from './social-api.ts'

/**
 * The like button of an item of any kind. It changes at once and takes the server's answer
 * (the real count) when it arrives; a failure puts it back and says why. Guests see the count
 * and a link to sign in.
 */
export function LikeButton(props: {
  kind: ContentKind
  id: string
  initial: LikeState
  signedIn: boolean
}) {
  const { apiGatewayUrl } = useSettings()
  const [state, setState] = useState(props.initial)
  const [pending, setPending] = useState(false)
  const [error, setError] = useState<string>()

  if (!props.signedIn) {
    return (
      <p className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
        <span>
          <Heart aria-hidden="true" className="mr-1 inline size-4 align-[-0.125em]" />
          いいね <span data-testid="like-count">{state.count}</span>
        </span>
        <SignInLink>ログインしていいねする</SignInLink>
      </p>
    )
  }

  async function toggle() {
    const before = state
    const liked = !before.liked
    setState({ liked, count: before.count + (liked ? 1 : -1) })
    setError(undefined)
    setPending(true)
    try {
      const api = socialApi(apiGatewayUrl, props.kind, props.id)
      setState(await (liked ? api.like() : api.unlike()))
    } catch (caught) {
      setState(before)
      setError(caught instanceof Error ? caught.message : 'いいねできませんでした')
    } finally {
      setPending(false)
    }
  }

  return (
    <div className="flex items-center gap-2">
      <button
        type="button"
        aria-pressed={state.liked}
        disabled={pending}
        onClick={() => void toggle()}
        className={`inline-flex items-center gap-1.5 rounded-full border px-3 py-1.5 text-sm font-medium ${
          state.liked
            ? 'border-pink-300 bg-pink-50 text-pink-700 dark:border-pink-700 dark:bg-pink-950 dark:text-pink-200'
            : 'border-slate-300 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800'
        }`}
      >
        <Heart aria-hidden="true" className={`size-4 ${state.liked ? 'fill-current' : ''}`} />
        いいね
        <span data-testid="like-count">{state.count}</span>
      </button>
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </div>
  )
}
