import { data, Link, type ShouldRevalidateFunction } from 'react-router'
import { Avatar } from '#app/components/avatar.tsx'
import { MessageRoom } from '#app/components/messages/message-room.tsx'
import { contentForPage } from '#app/lib/content-response.server.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { useStorageSettings } from '#app/lib/root-data.ts'
import { publicObjectUrl } from '#app/lib/storage/storage-settings.ts'
import { actorOf } from '#features/actor.ts'
import { profilePath } from '#features/content-kinds.ts'
import { listMessages } from '#features/messages/message-history.server.ts'
import { readRoom } from '#features/messages/rooms.server.ts'
import type { Route } from './+types/room'

/** Not found, or not one's own: said inside the layout, with the header still there. */
export { ContentErrorBoundary as ErrorBoundary } from '#app/components/error-page.tsx'

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, {
    title: loaderData ? `${loaderData.room.other.displayName}さんとのメッセージ` : 'メッセージ',
    description: 'ダイレクトメッセージのやりとりです。',
  })

/** The room and its newest messages; only its two members get it (404 to anyone else). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const user = await context.auth.requireUser(request)
  const actor = actorOf(user)
  const path = `/dms/${params.id}`
  const room = await contentForPage(readRoom(context.db, actor, params.id), path)
  const page = await contentForPage(listMessages(context.db, actor, params.id, {}), path)
  return data({ room, page }, { headers: { 'Cache-Control': 'private, no-store' } })
}

/**
 * The page keeps its messages itself (new ones arrive through the API while it is open): the
 * header's counts are read again after a read marker moves, but the room is not reloaded.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  currentParams,
  nextParams,
  formMethod,
}) => currentParams.id !== nextParams.id || formMethod !== undefined

export default function DirectMessageRoom({ loaderData }: Route.ComponentProps) {
  const { room, page } = loaderData
  const storage = useStorageSettings()
  return (
    <div className="mx-auto flex max-w-3xl flex-col">
      <div className="flex items-center gap-3">
        <Link to="/dms" className="text-sm text-brand-700 hover:underline dark:text-sky-300">
          ← メッセージ一覧
        </Link>
      </div>
      <div className="mt-3 flex items-center gap-3">
        <Avatar
          name={room.other.displayName}
          url={room.other.avatarKey ? publicObjectUrl(storage, room.other.avatarKey) : null}
          size="small"
        />
        <h1 className="relative min-w-0 truncate text-xl font-bold">
          <Link to={profilePath(room.other.username)} className="hover:underline">
            {room.other.displayName}
          </Link>
          <span className="sr-only">さんとのメッセージ</span>
        </h1>
      </div>
      <MessageRoom key={room.id} room={room} firstPage={page} />
    </div>
  )
}
